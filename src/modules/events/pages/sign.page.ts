/**
 * `GET /sign?token=` (docs/reference/pages.md): the page a signatory opens from the link of a signature
 * request (`fulfill_url`). A pending request shows what is asked (edition, event, requester), a
 * canvas to draw on or a PNG to upload, and a form to decline with a reason; the page's script
 * (`scripts/sign.js`) sends them to the token routes of docs/reference/signatures.md and reloads, so every
 * outcome is rendered here. Used (signed, declined), cancelled, expired and unknown links each get their own
 * page: 404 for an unknown link, 410 for an expired one, 200 otherwise.
 */
import { scriptAsset } from '../../../kernel/pages/assets.ts';
import { dataMessages, type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { messagePage, page } from '../../../kernel/pages/layout.ts';
import { formatMoment, formatSpan, MESSAGES } from '../page-messages.ts';
import type { SignatureRequestView } from '../signatures/index.ts';
import { SIGN_MESSAGES, type SignMessages } from './sign.messages.ts';

export const SIGN_SCRIPT = scriptAsset('/assets/sign.js', new URL('./scripts/sign.js', import.meta.url));

/** The largest PNG the page uploads (the API takes up to 512 KiB; a signature needs far less). */
export const MAX_UPLOAD_BYTES = 256 * 1024;

export type SignLookup =
  | { state: 'unknown' }
  | { state: 'expired' }
  | { state: 'open'; view: SignatureRequestView };

function summary(view: SignatureRequestView, language: Language): Html {
  const t = SIGN_MESSAGES[language];
  const common = MESSAGES[language];
  const span = formatSpan(new Date(view.edition.starts_at), new Date(view.edition.ends_at), language);
  const signatory = view.signatory_title
    ? `${view.signatory_name}, ${view.signatory_title}`
    : view.signatory_name;
  return html`<section class="card" aria-labelledby="request-title">
<p class="muted">${t.title}</p>
<h1 id="request-title">${view.edition.name}</h1>
<p>${t.intro(view.requested_by, view.event.name)}</p>
<dl>
<dt>${common.event}</dt><dd>${view.event.name}</dd>
<dt>${common.dates}</dt><dd>${span}</dd>
<dt>${t.signatory}</dt><dd>${signatory}</dd>
${view.status === 'pending' ? html`<dt>${t.expires}</dt><dd>${formatMoment(new Date(view.expires_at), language)}</dd>` : ''}
</dl>
</section>`;
}

function signForms(t: SignMessages): Html {
  return html`<form class="card" id="sign-form" hidden${dataMessages(t.script)} data-max-bytes="${MAX_UPLOAD_BYTES}">
<h2 id="signature-title">${t.yourSignature}</h2>
<p class="hint" id="draw-help">${t.drawHelp}</p>
<canvas id="pad" class="pad" role="img" aria-label="${t.padLabel}" aria-describedby="draw-help"></canvas>
<div class="actions">
<button type="button" id="undo">${t.undo}</button>
<button type="button" id="clear">${t.clear}</button>
</div>
<label for="upload">${t.upload}</label>
<p class="hint" id="upload-help">${t.uploadHelp}</p>
<input id="upload" name="upload" type="file" accept="image/png" aria-describedby="upload-help">
<img id="preview" class="preview" alt="${t.previewAlt}" hidden>
<p id="sign-error" class="error" role="alert"></p>
<p id="sign-status" class="visually-hidden" role="status"></p>
<div class="actions"><button type="submit" class="primary" id="sign-submit">${t.sign}</button></div>
</form>
<form class="card" id="decline-form" hidden>
<h2>${t.declineTitle}</h2>
<p class="hint" id="decline-help">${t.declineHelp}</p>
<label for="reason">${t.reason}</label>
<textarea id="reason" name="reason" maxlength="1000" aria-describedby="decline-help"></textarea>
<p id="decline-error" class="error" role="alert"></p>
<div class="actions"><button type="submit" class="danger" id="decline-submit">${t.decline}</button></div>
</form>
<noscript><p class="card error">${t.noscript}</p></noscript>`;
}

function outcome(view: SignatureRequestView, t: SignMessages, language: Language): Html {
  const decided = formatMoment(new Date(view.decided_at ?? view.created_at), language);
  if (view.status === 'completed') {
    return html`<section class="card" aria-labelledby="outcome"><h2 id="outcome" class="status status-ok">${t.completedTitle}</h2>
<p>${t.completed(decided)}</p></section>`;
  }
  if (view.status === 'denied') {
    return html`<section class="card" aria-labelledby="outcome"><h2 id="outcome" class="status status-bad">${t.deniedTitle}</h2>
<p>${t.denied(decided)}</p>
${view.reason ? html`<dl><dt>${t.yourReason}</dt><dd>${view.reason}</dd></dl>` : ''}</section>`;
  }
  return html`<section class="card" aria-labelledby="outcome"><h2 id="outcome" class="status status-wait">${t.cancelledTitle}</h2>
<p>${t.cancelled}</p></section>`;
}

export function signPage(found: SignLookup, language: Language): { status: number; document: Html } {
  const t = SIGN_MESSAGES[language];
  if (found.state === 'unknown') {
    return { status: 404, document: messagePage(language, t.unknownTitle, t.unknown) };
  }
  if (found.state === 'expired') {
    return { status: 410, document: messagePage(language, t.expiredTitle, t.expired) };
  }
  const { view } = found;
  const pending = view.status === 'pending';
  return {
    status: 200,
    document: page({
      language,
      title: `${t.title}: ${view.edition.name}`,
      body: html`${summary(view, language)}
${pending ? signForms(t) : outcome(view, t, language)}`,
      scripts: pending ? [SIGN_SCRIPT] : [],
    }),
  };
}
