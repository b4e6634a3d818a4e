/**
 * `GET /me` (docs/reference/pages.md): the signed-in person's own page, where the invitation mails'
 * sign-in lands. Who they are and a sign-out button, then three lists of theirs only: registrations
 * (every edition, newest first, a pending one with its payment links, a confirmed one with its
 * badge), active badges with their QR codes, and certificates with their PDF, credential and
 * verification links. Nobody signed in gets a page saying so, with the sign-in link that comes back
 * here. Always HTML: the API has the same data as JSON (`/users/me/certificates`, …).
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { page } from '../../../kernel/pages/layout.ts';
import { qrSvg } from '../../../kernel/pages/qr-svg.ts';
import { SIGN_OUT_SCRIPT, signOutForm } from '../../identity/index.ts';
import {
  type BadgeCodes,
  findEmissionsOfRegistrations,
  listActiveBadgesOfUser,
  type UserBadgeView,
} from '../badges/index.ts';
import { listMyCertificates } from '../certificates/index.ts';
import { formatDay, formatMoment, formatSpan, MESSAGES, type Messages } from '../page-messages.ts';
import { listRegistrationsOfUser, type OwnRegistration } from '../registrations/index.ts';
import { ME_MESSAGES, type MeMessages } from './me.messages.ts';

/** Certificates shown at most (newest first); the page says when there are more. */
export const ME_CERTIFICATES_LIMIT = 100;

/** Where the sign-in sends the person back: this page. */
export const ME_SIGN_IN = `/auth/sign-in?return_to=${encodeURIComponent('/me')}`;

type Certificates = Awaited<ReturnType<typeof listMyCertificates>>;

export interface MeView {
  person: { name: string | null; email: string };
  registrations: Array<OwnRegistration & { badge_path: string | null }>;
  badges: Array<UserBadgeView & { badge_url: string; badge_path: string }>;
  certificates: Certificates;
}

/** Everything of `actor`'s the page lists, read from the features that own it. */
export async function meView(
  db: Database,
  codes: BadgeCodes,
  publicBaseUrl: string,
  actor: Identity,
): Promise<MeView> {
  const [registrations, badges, certificates] = await Promise.all([
    listRegistrationsOfUser(db, actor.userId),
    listActiveBadgesOfUser(db, actor.userId),
    listMyCertificates(db, publicBaseUrl, actor, { page: 1, limit: ME_CERTIFICATES_LIMIT, offset: 0 }),
  ]);
  const confirmed = registrations.filter((row) => row.status === 'confirmed').map((row) => row.id);
  const emissions = await findEmissionsOfRegistrations(db, confirmed);
  const badgeOf = new Map(emissions.map((emission) => [emission.registration_id, emission.id]));
  const pathOf = (emissionId: string) => new URL(codes.urlOf(emissionId)).pathname;
  return {
    person: { name: actor.name ?? null, email: actor.email },
    registrations: registrations.map((row) => {
      const emissionId = row.status === 'confirmed' ? badgeOf.get(row.id) : undefined;
      return { ...row, badge_path: emissionId === undefined ? null : pathOf(emissionId) };
    }),
    // Newest edition first, as the other two lists.
    badges: badges
      .map((badge) => ({ ...badge, badge_url: codes.urlOf(badge.id), badge_path: pathOf(badge.id) }))
      .sort((a, b) => b.edition.starts_at.getTime() - a.edition.starts_at.getTime()),
    certificates,
  };
}

/** What a link says to a screen reader beyond its visible words: which item it belongs to. */
const about = (what: string) => html`<span class="visually-hidden"> (${what})</span>`;

function statusClass(status: OwnRegistration['status']): string {
  if (status === 'confirmed') return 'status-ok';
  return status === 'pending_payment' ? 'status-wait' : 'status-bad';
}

function registrationItem(
  row: MeView['registrations'][number],
  t: Messages,
  m: MeMessages,
  language: Language,
) {
  const name = `${row.event_name}, ${row.edition_name}`;
  const pending = row.status === 'pending_payment';
  const links: Html[] = [];
  if (pending && row.checkout_url !== null) {
    links.push(html`<li><a href="${row.checkout_url}">${m.pay}${about(name)}</a></li>`);
  }
  if (pending && row.intent_id !== null) {
    links.push(html`<li><a href="/checkout/${row.intent_id}">${m.payment}${about(name)}</a></li>`);
  }
  if (row.badge_path !== null) {
    links.push(html`<li><a href="${row.badge_path}">${m.openBadge}${about(name)}</a></li>`);
  }
  return html`<li class="card" data-registration-id="${row.id}">
<h3>${row.event_name}</h3>
<p class="status ${statusClass(row.status)}">${m.statuses[row.status]}</p>
<dl>
<dt>${t.edition}</dt><dd>${row.edition_name}</dd>
<dt>${t.dates}</dt><dd>${formatSpan(row.starts_at, row.ends_at, language)}</dd>
<dt>${t.ticket}</dt><dd>${row.ticket_name}</dd>
<dt>${m.registered}</dt><dd>${formatDay(row.created_at, language)}</dd>
${pending && row.hold_expires_at !== null ? html`<dt>${m.heldUntil}</dt><dd>${formatMoment(row.hold_expires_at, language)}</dd>` : ''}
</dl>
${links.length === 0 ? '' : html`<ul class="links">${links}</ul>`}
</li>`;
}

function badgeItem(badge: MeView['badges'][number], t: Messages, m: MeMessages, language: Language) {
  const ticket = badge.origin === 'staff' ? t.staff : (badge.ticket_name ?? t.participant);
  const name = `${badge.event.name}, ${badge.edition.name}`;
  return html`<li class="card" data-badge-id="${badge.id}">
<h3>${badge.event.name}</h3>
<dl>
<dt>${t.edition}</dt><dd>${badge.edition.name}</dd>
<dt>${t.dates}</dt><dd>${formatSpan(badge.edition.starts_at, badge.edition.ends_at, language)}</dd>
<dt>${t.ticket}</dt><dd>${ticket}</dd>
</dl>
${qrSvg(badge.badge_url, `${t.qrLabel}: ${name}`)}
<ul class="links"><li><a href="${badge.badge_path}">${m.openBadge}${about(name)}</a></li></ul>
</li>`;
}

function certificateItem(
  certificate: Certificates['items'][number],
  t: Messages,
  m: MeMessages,
  language: Language,
) {
  const valid = certificate.status === 'valid';
  const name = `${certificate.certificate_name}, ${certificate.edition_name}`;
  const revokedAt = certificate.revoked_at === null ? null : new Date(certificate.revoked_at);
  return html`<li class="card" data-certificate-id="${certificate.id}">
<h3>${certificate.certificate_name}</h3>
<p class="status ${valid ? 'status-ok' : 'status-bad'}">${valid ? t.certificateValid : t.certificateRevoked}</p>
<dl>
<dt>${t.event}</dt><dd>${certificate.event_name}</dd>
<dt>${t.edition}</dt><dd>${certificate.edition_name}</dd>
<dt>${t.issued}</dt><dd>${formatDay(new Date(certificate.issued_at), language)}</dd>
${revokedAt === null ? '' : html`<dt>${t.revokedOn}</dt><dd>${formatDay(revokedAt, language)}</dd>`}
${certificate.reason === null || valid ? '' : html`<dt>${t.reason}</dt><dd>${certificate.reason}</dd>`}
</dl>
<ul class="links">
<li><a href="/certificates/${certificate.id}/pdf">${m.pdf}${about(name)}</a></li>
<li><a href="/certificates/${certificate.id}/credential">${m.credential}${about(name)}</a></li>
<li><a href="/verify/${certificate.verification_code}">${m.verify}${about(name)}</a></li>
</ul>
</li>`;
}

function section(id: string, title: string, items: Html[], empty: string, more: string | '' = '') {
  return html`<section aria-labelledby="${id}-title" id="${id}">
<h2 id="${id}-title">${title}</h2>
${items.length === 0 ? html`<p class="muted">${empty}</p>` : html`<ul class="list">${items}</ul>`}
${more === '' ? '' : html`<p class="hint">${more}</p>`}
</section>`;
}

/**
 * The page of `view`'s person, or, with no one signed in, the page that asks them to sign in.
 * `viaSession`: signed in by the session cookie (a bearer token has no session to sign out of).
 */
export function mePage(view: MeView | undefined, language: Language, viaSession = true): Html {
  const t = MESSAGES[language];
  const m = ME_MESSAGES[language];
  if (view === undefined) {
    return page({
      language,
      title: m.signedOutTitle,
      body: html`<div class="card" data-signed-in="false">
<h1>${m.signedOutTitle}</h1>
<p>${m.signedOut}</p>
<p><a href="${ME_SIGN_IN}">${m.signIn}</a></p>
</div>`,
    });
  }
  const { person, registrations, badges, certificates } = view;
  const who = person.name === null ? person.email : `${person.name} (${person.email})`;
  const more =
    certificates.total > certificates.items.length
      ? m.newest(certificates.items.length, certificates.total)
      : '';
  return page({
    language,
    title: m.title,
    body: html`<div class="card" data-signed-in="true">
<h1>${m.title}</h1>
<p>${m.signedInAs} <strong>${who}</strong></p>
${viaSession ? signOutForm(language, '/me') : html`<p class="hint">${m.tokenHint}</p>`}
</div>
${section(
  'registrations',
  m.registrations,
  registrations.map((row) => registrationItem(row, t, m, language)),
  m.registrationsNone,
)}
${section(
  'badges',
  m.badges,
  badges.map((badge) => badgeItem(badge, t, m, language)),
  m.badgesNone,
)}
${section(
  'certificates',
  m.certificates,
  certificates.items.map((certificate) => certificateItem(certificate, t, m, language)),
  m.certificatesNone,
  more,
)}`,
    scripts: viaSession ? [SIGN_OUT_SCRIPT] : [],
  });
}
