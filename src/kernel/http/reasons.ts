/**
 * The closed list of `error.reason`s: a stable snake_case word that tells apart the causes sharing
 * one error code (docs/reference/errors.md, "Error reasons"). Every 409 carries one, and so does every
 * refusal of a business rule answered 400 (not a field failing its schema: that is `VALIDATION_ERROR` with
 * `fields`). A reason is typed `ErrorReason`, so a misspelt one does not compile; the text beside each says
 * when it is answered, and the docs/reference/errors.md's table lists them all (test/docs-truth.test.ts).
 *
 * A reason, once published, keeps its meaning: integrators branch on it. Add one here, to the
 * docs/reference/errors.md's table and to the `reasons` of the routes that can answer it.
 */
export const ERROR_REASONS = {
  // ---- unique values and existing resources
  slug_taken: 'the slug is already used by another resource of the same kind',
  name_taken: 'the name is already used by another of your wallets',
  already_exists: 'another resource already has these values',
  overlaps_existing: 'the change overlaps an existing resource',
  still_referenced: 'the resource is still referenced by others',
  state_conflict: 'the state of the resource does not allow the operation',
  already_member: 'the person is already a member',
  already_invited: 'a pending invitation for this e-mail to the event already exists',
  invitation_not_pending: 'the invitation was already accepted or withdrawn',
  owner_not_removable: 'the owner of an event or project cannot be removed',
  member_mismatch: 'the path user_id names a different member than the e-mail',
  already_published: 'the event or edition is already published',
  already_revoked: 'the certificate, signature or credential is already revoked',
  // ---- editions, programs, templates
  edition_overlap: 'the edition overlaps another edition of the event',
  ends_before_start: 'the end is not after the start',
  registration_opens_after_start: 'registration would open after the edition starts',
  rule_broken: 'the values break a rule of the resource',
  already_signed_up: 'the person is already signed up to the program',
  program_full: 'the program has reached its max_participants',
  below_sign_ups: 'max_participants would be below the current sign-ups',
  template_scope_taken: 'the edition already has a badge template for that scope',
  template_linked: 'the certification template is linked to programs, so its kind cannot change',
  already_linked: 'the program is already linked to the certification template',
  not_program_attendance: 'only a program_attendance template can be linked to programs',
  program_not_linkable: 'the program is not a live program of the template’s edition',
  edition_not_started: 'certificates are issued once the edition has started',
  // ---- registrations and paid tickets
  already_registered: 'the person already holds an active registration for the edition',
  sold_out: 'the ticket type has no seat left (held seats of unpaid checkouts count)',
  edition_ended: 'the edition has ended, so registration is closed',
  edition_not_published: 'the edition is a draft, so registration is not open',
  registration_not_open: 'registration opens later (registration_opens_at)',
  hold_expired: 'the registration’s unpaid hold ended and it expired',
  already_cancelled: 'the registration is already cancelled',
  already_refunded: 'the registration is already refunded',
  registration_changed: 'the registration changed meanwhile; read it again',
  checkout_in_progress: 'another checkout of the same person is in progress',
  no_currency: 'the paid ticket type has no currency',
  payments_not_linked: 'the event has no payment wallet linked',
  not_paid: 'the registration was not paid, so it is cancelled, not refunded',
  not_confirmed: 'only a confirmed registration can be refunded',
  edition_started: 'a registrant cannot cancel a paid registration once the edition has started',
  checked_in: 'a registrant cannot cancel a paid registration once it was checked in',
  test_mode_payment: 'the payment was simulated in test mode, so nothing can be given back',
  sales_restricted: 'sales and money are for the event’s owners and admins; staff see no money',
  // ---- check-ins
  badge_unknown: 'the scanned code is not a badge issued by the service',
  wrong_edition: 'the badge belongs to another edition',
  badge_revoked: 'the badge has been revoked',
  not_allowed: 'the badge does not admit its holder to the program',
  not_open: 'the scan is outside the edition’s check-in window',
  nonce_reused: 'the scan’s nonce was already used for another scan',
  // ---- signatures
  request_not_pending: 'the signature request is no longer pending',
  // ---- payments
  collector_revoked: 'the collector has been revoked',
  seller_revoked: 'the seller has been revoked',
  sandbox_only: 'a sandbox wallet accepts only sandbox intents',
  invalid_transition: 'the intent cannot move from its status to the one asked',
  test_mode_seller: 'a test-mode seller cannot take real payments',
  wallet_gone: 'the event’s payment wallet no longer exists',
  seller_credentials_unreadable: 'the seller’s stored credentials cannot be read',
  no_seller_credentials: 'the seller’s credentials are revoked, so the refund is made at Mercado Pago',
  not_refundable: 'only a succeeded intent can be refunded',
  refund_in_progress: 'another refund of the intent is in progress or being confirmed',
  refund_exceeds_amount: 'the refund is more than what is left to refund',
  no_provider_payment: 'the intent has no provider payment to refund (a test-mode intent)',
  refund_unconfirmed: 'Mercado Pago left the refund’s outcome unknown; it is confirmed later',
  oauth_state_invalid: 'the OAuth state is unknown, already used or expired',
  endpoint_disabled: 'the webhook endpoint is disabled',
  attempt_in_progress: 'an attempt of the delivery is in progress',
  // ---- browser sessions
  csrf: 'a request signed in by the session cookie came from another origin or without X-Convene-CSRF: 1',
  // ---- Idempotency-Key
  key_releasing: 'the Idempotency-Key is being released',
  request_in_progress: 'a request with the Idempotency-Key is still running',
  answer_withheld: 'the request with the Idempotency-Key completed, but its answer can no longer be shown',
} as const satisfies Record<string, string>;

export type ErrorReason = keyof typeof ERROR_REASONS;

/** Every known reason, for the document and the tests. */
export const ERROR_REASON_NAMES = Object.keys(ERROR_REASONS) as ErrorReason[];
