/**
 * `GET /checkout/{intent_id}` (docs/reference/pages.md): where Mercado Pago sends the payer back (the
 * preference's `back_urls`). It tells how the payment stands, from the service's own records and
 * never from the query Mercado Pago appends (anyone can type that): `paid` once the intent
 * succeeded and the registration is confirmed (with a link to the badge), `pending` while the
 * provider has not decided, `failed` for a refused or cancelled payment, `refunded`. While pending,
 * the page's script (`scripts/checkout.js`) asks again, backing off, and reloads when it changes.
 * A failed payment whose seat is still held offers a fresh checkout for the same registration (a
 * form posting to `POST /checkout/{intent_id}/retry`, `retryCheckout`), which leads to the new
 * intent's page and its link to pay. Every state shows the edition's dates and venue and the
 * payment reference (the intent id, also Mercado Pago's `external_reference`).
 * Only intents made by a ticket checkout have this page; any other id is a 404 page.
 */
import type { Database } from '../../../kernel/db/client.ts';
import { scriptAsset } from '../../../kernel/pages/assets.ts';
import { type Html, html } from '../../../kernel/pages/html.ts';
import type { Language } from '../../../kernel/pages/language.ts';
import { messagePage, page } from '../../../kernel/pages/layout.ts';
import type { PaymentsPort } from '../../../kernel/payments-port.ts';
import type { BadgeCodes } from '../badges/index.ts';
import { findEditionNames, findEmissionOfRegistration } from '../badges/index.ts';
import { formatMoment, formatMoney, formatSpan, MESSAGES } from '../page-messages.ts';
import { findRegistration } from '../registrations/index.ts';
import { findTicketType } from '../tickets/index.ts';
import { venue } from './badge.page.ts';
import { CHECKOUT_MESSAGES, type CheckoutMessages } from './checkout.messages.ts';

export const CHECKOUT_SCRIPT = scriptAsset(
  '/assets/checkout.js',
  new URL('./scripts/checkout.js', import.meta.url),
);

export type CheckoutStatus = 'pending' | 'paid' | 'failed' | 'refunded';

interface Deps {
  db: Database;
  payments: PaymentsPort;
  badgeCodes: BadgeCodes;
}

/** What the page shows, or undefined for an id that is not a ticket checkout's intent. */
export async function checkoutView({ db, payments, badgeCodes }: Deps, intentId: string, now = new Date()) {
  const intent = await payments.checkoutIntent(db, intentId);
  const registration = intent === undefined ? undefined : await findRegistration(db, intent.registrationId);
  if (intent === undefined || registration === undefined) return undefined;
  const [ticketType, names, emission] = await Promise.all([
    findTicketType(db, registration.ticket_type_id),
    findEditionNames(db, registration.edition_id),
    findEmissionOfRegistration(db, registration.id),
  ]);
  let status: CheckoutStatus;
  if (intent.status === 'refunded' || registration.status === 'refunded') status = 'refunded';
  else if (intent.status === 'succeeded') status = registration.status === 'confirmed' ? 'paid' : 'pending';
  else if (intent.status === 'pending' || intent.status === 'processing') status = 'pending';
  else status = 'failed';
  const paid = status === 'paid' && emission?.status === 'active';
  // A failed payment still holds the seat while the registration waits for another one.
  const held =
    registration.status === 'pending_payment' &&
    registration.hold_expires_at !== null &&
    registration.hold_expires_at.getTime() > now.getTime();
  // Where to pay, while this intent is the registration's checkout and nothing was paid on it yet
  // (the page a fresh checkout sends the payer to, `retryCheckout`).
  const checkoutUrl =
    held && intent.status === 'pending' && registration.intent_id === intentId
      ? registration.checkout_url
      : null;
  return {
    intent_id: intentId,
    status,
    amount_cents: intent.amountCents,
    currency: intent.currency,
    ticket_name: ticketType?.name ?? '',
    event_name: names?.event_name ?? '',
    edition_name: names?.edition_name ?? '',
    starts_at: names?.starts_at.toISOString() ?? null,
    ends_at: names?.ends_at.toISOString() ?? null,
    location_name: names?.location_name ?? null,
    location_description: names?.location_description ?? null,
    checkout_url: checkoutUrl,
    can_retry: status === 'failed' && held && registration.intent_id === intentId,
    // A fresh checkout moved the registration to another intent: this one is history.
    current_intent_id:
      registration.intent_id !== null && registration.intent_id !== intentId ? registration.intent_id : null,
    hold_expires_at: held ? (registration.hold_expires_at?.toISOString() ?? null) : null,
    status_reason: status === 'refunded' ? registration.status_reason : null,
    badge_url: paid && emission !== undefined ? badgeCodes.urlOf(emission.id) : null,
  };
}

export type CheckoutView = NonNullable<Awaited<ReturnType<typeof checkoutView>>>;

/** What a failed payment's page offers: its successor, a fresh checkout, or registering again. */
function failedNext(view: CheckoutView, held: string | undefined, t: CheckoutMessages): Html {
  if (view.current_intent_id !== null) {
    return html`<p>${t.newer} <a href="/checkout/${view.current_intent_id}">${t.newerLink}</a></p>`;
  }
  if (view.can_retry && held !== undefined) {
    return html`<p>${t.retryText(held)}</p>
<form method="post" action="/checkout/${view.intent_id}/retry" class="actions"><button type="submit" class="primary">${t.retry}</button></form>`;
  }
  return html`<p>${t.expiredText}</p>`;
}

export function checkoutPage(
  view: CheckoutView | undefined,
  language: Language,
): { status: number; document: Html } {
  const t = CHECKOUT_MESSAGES[language];
  if (view === undefined) {
    return { status: 404, document: messagePage(language, t.unknownTitle, t.unknown) };
  }
  const common = MESSAGES[language];
  const held =
    view.hold_expires_at === null ? undefined : formatMoment(new Date(view.hold_expires_at), language);
  const verdict = {
    pending: html`<p class="status status-wait">${t.pending}</p><p>${t.pendingText}</p>
${held === undefined ? '' : html`<p>${t.heldUntil} ${held}.</p>`}
${view.checkout_url === null ? '' : html`<p>${t.payText} <a href="${view.checkout_url}">${t.pay}</a></p>`}
<p id="checkout-live" class="visually-hidden" role="status"></p>
<noscript><p>${t.noscript}</p></noscript>`,
    paid: html`<p class="status status-ok">${t.paid}</p><p>${t.paidText}</p>
${view.badge_url === null ? '' : html`<p><a href="${view.badge_url}">${t.badge}</a></p>`}`,
    failed: html`<p class="status status-bad">${t.failed}</p><p>${t.failedText}</p>
${failedNext(view, held, t)}`,
    refunded: html`<p class="status status-bad">${t.refunded}</p>
<p>${view.status_reason === 'sold_out_after_expiry' ? t.soldOutText : t.refundedText}</p>`,
  }[view.status];
  return {
    status: 200,
    document: page({
      language,
      title: t.title,
      body: html`<div class="card" id="checkout" data-status="${view.status}" data-updated="${t.updated}">
<p class="muted">${t.title}</p>
<h1>${view.ticket_name}</h1>
${verdict}
<dl>
<dt>${common.event}</dt><dd>${view.event_name}</dd>
<dt>${common.edition}</dt><dd>${view.edition_name}</dd>
${
  view.starts_at === null || view.ends_at === null
    ? ''
    : html`<dt>${common.dates}</dt><dd>${formatSpan(new Date(view.starts_at), new Date(view.ends_at), language)}</dd>`
}
${venue(view, common)}
<dt>${t.amount}</dt><dd>${formatMoney(view.amount_cents, view.currency, language)}</dd>
<dt>${t.reference}</dt><dd><code>${view.intent_id}</code></dd>
</dl>
<p class="hint">${t.referenceHint}</p>
</div>`,
      scripts: view.status === 'pending' ? [CHECKOUT_SCRIPT] : [],
    }),
  };
}
