/**
 * `/verify/{code}` as a page (docs/reference/pages.md), for a browser: the certificate's verdict, holder,
 * certificate, edition and event, issue date and, when revoked, when and why. The data is the
 * JSON route's (certificates.service.ts `verify`); an unknown code is a 404 page.
 */
import { AppError } from '../../../kernel/http/errors.ts';
import { type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { messagePage, page } from '../../../kernel/pages/layout.ts';
import { formatDay, MESSAGES } from '../page-messages.ts';
import type { verify } from './certificates.service.ts';

type Verdict = Awaited<ReturnType<typeof verify>>;

export async function verifyPage(
  lookup: () => Promise<Verdict>,
  language: Language,
): Promise<{ status: number; document: Html }> {
  const t = MESSAGES[language];
  let verdict: Verdict;
  try {
    verdict = await lookup();
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
    return { status: 404, document: messagePage(language, t.verifyUnknownTitle, t.verifyUnknown) };
  }
  const heading = verdict.valid ? t.certificateValid : t.certificateRevoked;
  return {
    status: 200,
    document: page({
      language,
      title: t.verifyTitle,
      body: html`<div class="card">
<p class="muted">${t.verifyTitle}</p>
<h1>${verdict.holder_name}</h1>
<p class="status ${verdict.valid ? 'status-ok' : 'status-bad'}" role="status">${heading}</p>
<dl>
<dt>${t.certificate}</dt><dd>${verdict.certificate_name}</dd>
<dt>${t.edition}</dt><dd>${verdict.edition_name}</dd>
<dt>${t.event}</dt><dd>${verdict.event_name}</dd>
<dt>${t.issued}</dt><dd>${formatDay(new Date(verdict.issued_at), language)}</dd>
${
  verdict.revoked_at === null
    ? ''
    : html`<dt>${t.revokedOn}</dt><dd>${formatDay(new Date(verdict.revoked_at), language)}</dd>
<dt>${t.reason}</dt><dd>${verdict.reason ?? ''}</dd>`
}
</dl>
</div>`,
    }),
  };
}
