/**
 * `GET /b/{code}` (docs/reference/pages.md): what anyone scanning a badge sees. The holder's name (their
 * token's name claim; without one, their e-mail masked as every public artefact shows it, see
 * `holder-name.ts`, since the page is open to whoever holds the code), the edition, event, dates and ticket,
 * and venue, and whether the badge is valid: active and its edition not yet ended. A valid badge shows its QR
 * code (what a scanner at the door reads: `PUBLIC_BASE_URL/b/<code>`, as inline SVG) for the holder to show
 * from their phone. Below it, a signed-in member with staff or more on the event checks the holder in
 * (the page's script, `scripts/badge.js`, posting with the session cookie, docs/reference/sign-in.md);
 * anyone not signed in gets a link to sign in. An unknown or forged code is a 404 page. A client that
 * does not ask for HTML gets the same as JSON (`badgeView`), and the 404 envelope.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { scriptAsset } from '../../../kernel/pages/assets.ts';
import { dataMessages, type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { messagePage, page } from '../../../kernel/pages/layout.ts';
import { qrSvg } from '../../../kernel/pages/qr-svg.ts';
import type { BadgeCodes } from '../badges/index.ts';
import { findEditionNames, findEmission } from '../badges/index.ts';
import { findEditionWithAccess } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import { publicHolderName } from '../holder-name.ts';
import { formatSpan, MESSAGES, type Messages } from '../page-messages.ts';

export const BADGE_SCRIPT = scriptAsset('/assets/badge.js', new URL('./scripts/badge.js', import.meta.url));

/** What a badge page shows, or undefined for a code that is not a badge of this service. */
export async function badgeView(db: Database, codes: BadgeCodes, code: string, now = new Date()) {
  const emissionId = codes.emissionIdOf(code);
  const view = emissionId === null ? undefined : await findEmission(db, emissionId);
  const names = view === undefined ? undefined : await findEditionNames(db, view.edition_id);
  if (view === undefined || names === undefined) return undefined;
  const ended = names.ends_at.getTime() <= now.getTime();
  return {
    edition_id: view.edition_id,
    holder_name: publicHolderName(view.holder_name, view.holder_email),
    origin: view.origin,
    ticket_name: view.origin === 'participant' ? view.ticket_name : null,
    event_name: names.event_name,
    edition_name: names.edition_name,
    starts_at: names.starts_at.toISOString(),
    ends_at: names.ends_at.toISOString(),
    location_name: names.location_name,
    location_description: names.location_description,
    badge_url: codes.urlOf(view.id),
    status: view.status,
    status_reason: view.status_reason,
    edition_ended: ended,
    valid: view.status === 'active' && !ended,
  };
}

export type BadgeView = NonNullable<Awaited<ReturnType<typeof badgeView>>>;

/**
 * Who opens the page, for its check-in controls: signed in (the session cookie, or a bearer token)
 * and, if so, whether they hold staff or more on the badge's event.
 */
export interface BadgeViewer {
  signedIn: boolean;
  canCheckIn: boolean;
}

const ANONYMOUS: BadgeViewer = { signedIn: false, canCheckIn: false };

/** The viewer of a badge page: `actor` as the auth hook found them, their role on the badge's event. */
export async function badgeViewer(
  db: Database,
  badge: BadgeView | undefined,
  actor: Identity | null,
): Promise<BadgeViewer> {
  if (actor === null) return ANONYMOUS;
  if (badge === undefined) return { signedIn: true, canCheckIn: false };
  const found = await findEditionWithAccess(db, badge.edition_id, actor.userId);
  return { signedIn: true, canCheckIn: isEventRole(found?.role, 'staff') };
}

/**
 * Check-in by staff (docs/reference/pages.md): the button only for a signed-in member with staff or
 * more on the event, hidden until the script runs (nothing to do without it); for anyone not
 * signed in, a link to sign in and come back; for other signed-in people, nothing.
 */
function staffCheckIn(badge: BadgeView, code: string, t: Messages, viewer: BadgeViewer): Html | '' {
  const signIn = `/auth/sign-in?return_to=${encodeURIComponent(`/b/${code}`)}`;
  if (viewer.canCheckIn) {
    return html`<section class="card" id="staff" hidden aria-labelledby="staff-title" data-edition-id="${badge.edition_id}" data-code="${code}"${dataMessages(t.staffScript)}>
<h2 id="staff-title">${t.staffTitle}</h2>
<div class="actions"><button type="button" class="primary" id="check-in">${t.checkIn}</button></div>
<p id="staff-result" role="status" aria-live="polite"></p>
<p id="staff-sign-in" hidden><a href="${signIn}">${t.staffSignIn}</a></p>
</section>`;
  }
  if (viewer.signedIn) return '';
  return html`<p class="hint"><a href="${signIn}">${t.staffSignIn}</a></p>`;
}

/** The edition's venue, when it has one: its name, then what it says of it. */
export function venue(
  place: { location_name: string | null; location_description: string | null },
  t: Pick<Messages, 'venue'>,
): Html | '' {
  if (place.location_name === null && place.location_description === null) return '';
  const lines = [place.location_name, place.location_description].filter((line) => line !== null);
  return html`<dt>${t.venue}</dt><dd>${lines.map((line, index) => html`${index > 0 ? html`<br>` : ''}${line}`)}</dd>`;
}

export function badgePage(
  badge: BadgeView | undefined,
  language: Language,
  code = '',
  viewer: BadgeViewer = ANONYMOUS,
): { status: number; document: Html } {
  const t = MESSAGES[language];
  if (badge === undefined) {
    return { status: 404, document: messagePage(language, t.badgeUnknownTitle, t.badgeUnknown) };
  }
  const verdict = badge.valid ? t.valid : badge.status === 'revoked' ? t.revoked : t.ended;
  const reason = badge.status === 'revoked' ? t.reasons[badge.status_reason ?? ''] : undefined;
  const ticket = badge.origin === 'staff' ? t.staff : (badge.ticket_name ?? t.participant);
  const span = formatSpan(new Date(badge.starts_at), new Date(badge.ends_at), language);
  return {
    status: 200,
    document: page({
      language,
      title: `${t.badgeTitle}: ${badge.holder_name}`,
      body: html`<div class="card">
<p class="muted">${t.badgeTitle}</p>
<h1>${badge.holder_name}</h1>
<p class="status ${badge.valid ? 'status-ok' : 'status-bad'}" role="status">${verdict}</p>
${reason === undefined ? '' : html`<p>${reason}</p>`}
<dl>
<dt>${t.event}</dt><dd>${badge.event_name}</dd>
<dt>${t.edition}</dt><dd>${badge.edition_name}</dd>
<dt>${t.dates}</dt><dd>${span}</dd>
${venue(badge, t)}
<dt>${t.ticket}</dt><dd>${ticket}</dd>
</dl>
${badge.valid ? html`${qrSvg(badge.badge_url, t.qrLabel)}<p class="hint">${t.qrHint}</p>` : ''}
</div>
${staffCheckIn(badge, code, t, viewer)}`,
      scripts: [BADGE_SCRIPT],
    }),
  };
}
