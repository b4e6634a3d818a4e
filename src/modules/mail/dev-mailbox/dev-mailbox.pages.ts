/**
 * The development mailbox's pages (docs/mail.md): the list of kept mails, newest first, and one
 * mail with its headers, its text part and attachments, and its HTML part in a frame. The pages
 * follow the pages' rules (kernel/pages/layout.ts); the mail's own HTML, written with inline styles
 * as mail clients need, is served on its own with a CSP that allows those styles and no script, its
 * `cid:` images pointed at their attachments.
 */
import { escapeHtml, type Html, html } from '../../../kernel/pages/html.ts';
import { page } from '../../../kernel/pages/layout.ts';
import type { KeptMail, listKept } from './dev-mailbox.repository.ts';

type KeptLine = Awaited<ReturnType<typeof listKept>>[number];

/** Where a mail and its parts are shown. */
export const mailPaths = (id: string) => ({
  page: `/dev/mail/${id}`,
  html: `/dev/mail/${id}/html`,
  text: `/dev/mail/${id}/text`,
  attachment: (index: number) => `/dev/mail/${id}/attachments/${index}`,
});

/** A definition list of `[term, value]` pairs. */
const facts = (pairs: Array<[string, Html | string]>) =>
  html`<dl>${pairs.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;

export function mailboxPage(mails: KeptLine[]): Html {
  const items = mails.map((mail) => {
    const kept = mail.kept_at.toISOString();
    return html`<li class="card"><a href="${mailPaths(mail.id).page}">${mail.subject || '(no subject)'}</a>
${facts([
  ['To', mail.to],
  ['Kind', mail.kind],
  ['Kept', html`<time datetime="${kept}">${kept}</time>`],
])}</li>
`;
  });
  return page({
    language: 'en',
    title: 'Development mailbox',
    body: html`<h1>Development mailbox</h1>
<p class="muted">Mail the service rendered instead of sending (MAIL_URL is not set), newest first.</p>
${mails.length === 0 ? html`<p class="card">No mail yet.</p>` : html`<ul class="list">${items}</ul>`}`,
  });
}

export function mailPage(mail: KeptMail): Html {
  const paths = mailPaths(mail.id);
  const attachments = mail.attachments.map(
    (attachment, index) =>
      html`<li><a href="${paths.attachment(index)}">${attachment.filename}</a>
<span class="muted">${attachment.contentType}${attachment.cid === null ? '' : ', inline'}</span></li>`,
  );
  return page({
    language: 'en',
    title: mail.subject || 'Mail',
    body: html`<p><a href="/dev/mail">All mail</a></p>
<div class="card"><h1>${mail.subject || '(no subject)'}</h1>
${facts([
  ['From', mail.sender],
  ['To', mail.to],
  ['Kind', mail.kind],
  ['Message-ID', mail.message_id ?? ''],
  ['Kept', mail.kept_at.toISOString()],
])}
<p><a href="${paths.text}">Text part</a> · <a href="${paths.html}">HTML part alone</a></p>
${attachments.length === 0 ? '' : html`<h2>Attachments</h2><ul>${attachments}</ul>`}</div>
<iframe class="mail-frame" title="The mail's HTML part" src="${paths.html}"></iframe>`,
  });
}

/** The mail's HTML part, its `cid:` references pointed at the attachments that carry them. */
export function mailHtml(mail: KeptMail): string {
  const paths = mailPaths(mail.id);
  const byCid = new Map(
    mail.attachments.flatMap((attachment, index) =>
      attachment.cid === null ? [] : [[attachment.cid, paths.attachment(index)] as const],
    ),
  );
  return mail.html.replace(/(["'(])cid:([^"')\s]+)/gi, (whole, before: string, cid: string) => {
    const target = byCid.get(decodeURIComponent(cid));
    return target === undefined ? whole : `${before}${escapeHtml(target)}`;
  });
}

/** The frame's CSP: the mail's inline styles and its images from here, nothing to run. */
export const MAIL_HTML_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; " +
  "form-action 'none'; frame-ancestors 'self'";

/** The mail page's CSP: the pages' own, and a frame of this origin (the HTML part). */
export const MAIL_PAGE_CSP_EXTRA = "frame-src 'self'";
