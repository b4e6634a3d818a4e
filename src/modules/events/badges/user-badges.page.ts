/**
 * `GET /users/{user_id}/badges` as a page (docs/reference/pages.md): the same public list as the JSON of
 * docs/reference/tickets.md (active badges of published editions, no e-mails), for a browser that asks for
 * HTML. Current and upcoming editions first, then past ones; each badge says its event, edition, dates and
 * ticket (or staff).
 */
import { type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { page } from '../../../kernel/pages/layout.ts';
import { formatSpan, MESSAGES, type Messages } from '../page-messages.ts';
import type { UserBadges } from './badges.schemas.ts';

type Item = UserBadges['attendant']['current'][number];

function badgeItem(item: Item, t: Messages, language: Language): Html {
  const span = formatSpan(new Date(item.edition.starts_at), new Date(item.edition.ends_at), language);
  const ticket = item.origin === 'staff' ? t.staff : (item.ticket_name ?? t.participant);
  return html`<li class="card">
<h3>${item.event.name}</h3>
<dl>
<dt>${t.edition}</dt><dd>${item.edition.name}</dd>
<dt>${t.dates}</dt><dd>${span}</dd>
<dt>${t.ticket}</dt><dd>${ticket}</dd>
</dl>
</li>`;
}

function section(id: string, title: string, items: Item[], empty: string, t: Messages, language: Language) {
  return html`<section aria-labelledby="${id}">
<h2 id="${id}">${title}</h2>
${items.length === 0 ? html`<p class="muted">${empty}</p>` : html`<ul class="list">${items.map((item) => badgeItem(item, t, language))}</ul>`}
</section>`;
}

export function userBadgesPage(badges: UserBadges, language: Language): Html {
  const t = MESSAGES[language];
  const byStart = (a: Item, b: Item) => a.edition.starts_at.localeCompare(b.edition.starts_at);
  const byEnd = (a: Item, b: Item) => b.edition.ends_at.localeCompare(a.edition.ends_at);
  const current = [...badges.attendant.current, ...badges.staff.current].sort(byStart);
  const past = [...badges.attendant.past, ...badges.staff.past].sort(byEnd);
  return page({
    language,
    title: t.badgesTitle,
    body: html`<h1>${t.badgesTitle}</h1>
${section('current', t.badgesCurrent, current, t.badgesNone, t, language)}
${section('past', t.badgesPast, past, t.badgesNonePast, t, language)}`,
  });
}
