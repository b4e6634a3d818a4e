/**
 * Signatures (docs/reference/signatures.md). An organizer asks someone to sign for an edition; the signatory
 * gets a link carrying an opaque token and, with it alone (no account), reads the request, signs it or
 * declines. Signing hands back a second token that revokes the signature.
 *
 * Rules:
 * - Tokens are 32 random bytes; only their SHA-256 is stored and looked up (kernel/tokens.ts).
 * - A request token works until the request's `expires_at`, whatever the state; after that, or when
 *   it is missing, malformed or unknown, it is 401. A revoke token likewise until `revoke_expires_at`.
 * - Lazy expiry: a pending request past `expires_at` becomes `expired` when touched (read by token,
 *   fulfilled, denied, cancelled, or listed with its edition).
 * - Only a pending request can be fulfilled, denied or cancelled (409 otherwise); each of these is
 *   a conditional update, so two concurrent decisions cannot both win.
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database, Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, notFound, unauthorized, validationError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { PNG_LIMITS } from '../../../kernel/pdf/png.ts';
import { seal } from '../../../kernel/secret-box.ts';
import { generateToken, hashToken } from '../../../kernel/tokens.ts';
import { type Mailer, queueMail } from '../../mail/index.ts';
import { requireEditionRole, requireReadableEdition } from '../editions/index.ts';
import * as repo from './signatures.repository.ts';
import {
  type CreateSignatureRequestBody,
  type FulfilBody,
  MAX_INLINE_IMAGE_BYTES,
  PNG_DATA_URL_PREFIX,
  type ReasonBody,
  type SignatureRequestView,
} from './signatures.schemas.ts';
import type { SignatureRequestRow, SignatureRow } from './signatures.table.ts';

/** How long the signatory can revoke a signature after giving it. */
export const REVOKE_TOKEN_DAYS = 365;
/** Tokens we issue are 43 base64url characters; anything far from that cannot be one. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{20,200}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const invalidLink = () => unauthorized('The link is not valid');
const expiredLink = () => unauthorized('The link has expired');

// ---------- response shapes (no hashes, ever) ----------

function toRequest(row: SignatureRequestRow) {
  const { token_hash: _hash, ...rest } = row;
  return serialize(rest);
}

function toSignature(row: SignatureRow) {
  const { revoke_token_hash: _hash, revoke_expires_at: _expires, ...rest } = row;
  return serialize(rest);
}

type Opened = NonNullable<Awaited<ReturnType<typeof repo.findRequestByTokenHash>>>;

/** The token holder's view: what they are asked to sign, nothing only organizers should see. */
function toView({ request, edition, event, requestedBy }: Opened): SignatureRequestView {
  return {
    id: request.id,
    status: request.status as SignatureRequestView['status'],
    signatory_name: request.signatory_name,
    signatory_email: request.signatory_email,
    signatory_title: request.signatory_title,
    // The signatory's own words when they declined; an organizer's cancellation note stays internal.
    reason: request.status === 'denied' ? request.reason : null,
    expires_at: request.expires_at.toISOString(),
    created_at: request.created_at.toISOString(),
    decided_at: request.decided_at?.toISOString() ?? null,
    edition: serialize(edition),
    event,
    requested_by: requestedBy,
  };
}

// ---------- tokens ----------

/** The hash of a presented token; a missing or malformed one is 401 like an unknown one. */
function hashOfPresented(token: unknown): string {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) throw invalidLink();
  return hashToken(token);
}

/** What a link shows: the request it opens, or why it opens none. */
export type Lookup = { state: 'unknown' } | { state: 'expired' } | { state: 'open'; opened: Opened };

/**
 * The request a token opens: `unknown` when the token is missing, malformed or unknown, or when
 * the request's edition was deleted; `expired` when the request is past its expiry (a pending one
 * is marked `expired` on the way).
 */
async function lookUp(db: Executor, token: unknown): Promise<Lookup> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return { state: 'unknown' };
  const found = await repo.findRequestByTokenHash(db, hashToken(token));
  if (found === undefined) return { state: 'unknown' };
  if (found.request.status === 'expired') return { state: 'expired' };
  if (found.isPastExpiry) {
    await repo.expireRequests(db, { id: found.request.id });
    return { state: 'expired' };
  }
  return { state: 'open', opened: found };
}

/** As `lookUp`, for the API: an unknown link and an expired one are both 401. */
async function openRequest(db: Executor, token: unknown): Promise<Opened> {
  const found = await lookUp(db, token);
  if (found.state === 'unknown') throw invalidLink();
  if (found.state === 'expired') throw expiredLink();
  return found.opened;
}

/**
 * Why a conditional decision found nothing to update: the request changed or expired in between.
 * Applies lazy expiry and returns the current status.
 */
async function settledStatus(db: Executor, requestId: string) {
  await repo.expireRequests(db, { id: requestId });
  return (await repo.findRequest(db, requestId))?.status;
}

async function refuseDecision(db: Executor, requestId: string): Promise<never> {
  const status = await settledStatus(db, requestId);
  if (status === 'expired') throw expiredLink();
  throw notPending(status);
}

const notPending = (status: string | undefined) =>
  conflict('request_not_pending', 'The signature request is no longer pending', { status });

/** For the routes' pre-body hook: authenticate a request token before the body is read. */
export async function authenticateRequestToken(db: Database, token: unknown): Promise<void> {
  await openRequest(db, token);
}

/** For the routes' pre-body hook: authenticate a revoke token before the body is read. */
export async function authenticateRevokeToken(db: Database, token: unknown): Promise<void> {
  await findRevocable(db, token);
}

async function findRevocable(db: Executor, token: unknown) {
  const found = await repo.findSignatureByRevokeHash(db, hashOfPresented(token));
  if (found === undefined) throw invalidLink();
  if (found.isPastExpiry) throw expiredLink();
  return found.signature;
}

// ---------- organizer routes ----------

/**
 * Creates a request and, in the same transaction, its `signature_request` mail to the signatory
 * (docs/mail.md). The token is shown once in the answer and stored as a hash; the mail needs it in its
 * link when it is rendered, so the outbox keeps it sealed with SECRETS_KEY (kernel/secret-box.ts).
 * The mail sender is woken once the transaction has committed.
 */
export async function createRequest(
  db: Database,
  config: { publicBaseUrl: string; secretsKey: Buffer; mail: Pick<Mailer, 'wake'> },
  editionId: string,
  actor: Identity,
  body: CreateSignatureRequestBody,
) {
  const { edition } = await requireEditionRole(db, editionId, actor, 'admin');
  const token = generateToken();
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertRequest(
      tx,
      {
        id: uuidv7(),
        edition_id: editionId,
        signatory_name: body.signatory_name,
        signatory_email: body.signatory_email,
        signatory_title: body.signatory_title ?? null,
        token_hash: hashToken(token),
        created_by: actor.userId,
      },
      body.expires_in_days ?? 7,
    );
    await queueMail(tx, {
      kind: 'signature_request',
      to: inserted.signatory_email,
      language: actor.language ?? 'en',
      eventId: edition.event_id,
      data: { request_id: inserted.id, token: seal(config.secretsKey, token) },
    });
    return inserted;
  });
  config.mail.wake();
  return { ...toRequest(row), token, fulfill_url: signUrl(config.publicBaseUrl, token) };
}

/** The signing page of a token (docs/reference/pages.md); the API route `/signature-requests/by-token` takes the same token. */
export function signUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/sign?token=${encodeURIComponent(token)}`;
}

export async function listRequests(
  db: Database,
  editionId: string,
  actor: Identity,
  status: repo.RequestStatus | undefined,
  window: Window,
) {
  await requireEditionRole(db, editionId, actor, 'admin');
  await repo.expireRequests(db, { editionId });
  const page = await repo.listRequests(db, editionId, status, window);
  return { ...page, items: page.items.map(toRequest) };
}

export async function cancelRequest(db: Database, requestId: string, actor: Identity, body: ReasonBody) {
  const request = await repo.findRequest(db, requestId);
  if (request === undefined) throw notFound('Signature request');
  // The edition guard: 404 for a deleted edition or a draft event hidden from the caller, then 403.
  await requireEditionRole(db, request.edition_id, actor, 'admin');
  await repo.expireRequests(db, { id: requestId });
  const cancelled = await repo.decideRequest(db, requestId, 'cancelled', body.reason ?? null);
  if (cancelled === undefined) throw notPending(await settledStatus(db, requestId));
  return toRequest(cancelled);
}

// ---------- token routes ----------

export async function getRequestByToken(db: Database, token: unknown) {
  return toView(await openRequest(db, token));
}

/** For the signing page (`/sign?token=`): what the link opens, never an error. */
export async function lookUpRequestView(
  db: Database,
  token: unknown,
): Promise<{ state: 'unknown' } | { state: 'expired' } | { state: 'open'; view: SignatureRequestView }> {
  const found = await lookUp(db, token);
  return found.state === 'open' ? { state: 'open', view: toView(found.opened) } : found;
}

/**
 * An inline image must really be a PNG and at most 512 KiB decoded; the schema has checked the
 * prefix, the alphabet and a length bound. (Decoding it is left to a worker thread: normalise.)
 */
function checkImage(imageUrl: string): void {
  if (!imageUrl.startsWith(PNG_DATA_URL_PREFIX)) return;
  const data = imageUrl.slice(PNG_DATA_URL_PREFIX.length);
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  const bytes = (data.length / 4) * 3 - padding;
  const invalid = (message: string) => validationError([{ field: 'image_url', message }]);
  if (data.length % 4 !== 0) throw invalid('must be valid base64');
  if (bytes > MAX_INLINE_IMAGE_BYTES) throw invalid(`must be at most ${MAX_INLINE_IMAGE_BYTES / 1024} KiB`);
  const head = Buffer.from(data.slice(0, 12), 'base64');
  if (!head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) throw invalid('must be a PNG image');
}

/**
 * The image as stored: a PNG normalised once, here, in a worker thread (kernel/pdf/signature-png.ts:
 * at most 600 x 200 px, re-encoded compactly), so that drawing it on every certificate is cheap
 * and a hostile file costs its decoding once, off the event loop. A PNG that cannot be read is a
 * 400. A hosted image's URL is kept as given (it is never fetched).
 */
/** The worker thread that normalises signature images (documents.worker.ts `signatureImage`). */
export interface SignatureImageNormaliser {
  run(task: 'signatureImage', url: string): Promise<string | null>;
}

async function normalise(documents: SignatureImageNormaliser, imageUrl: string): Promise<string> {
  if (!imageUrl.startsWith(PNG_DATA_URL_PREFIX)) return imageUrl;
  const normalised = await documents.run('signatureImage', imageUrl);
  if (normalised === null) {
    throw validationError([
      {
        field: 'image_url',
        message: `must be a PNG the service can read (8 bits per channel, not interlaced, at most ${PNG_LIMITS.maxSide} px a side and ${PNG_LIMITS.maxPixels.toLocaleString('en')} pixels)`,
      },
    ]);
  }
  return normalised;
}

export async function fulfilRequest(
  db: Database,
  documents: SignatureImageNormaliser,
  token: unknown,
  body: FulfilBody,
) {
  const { request } = await openRequest(db, token);
  checkImage(body.image_url);
  if (request.status !== 'pending') throw notPending(request.status);
  const imageUrl = await normalise(documents, body.image_url);
  const revokeToken = generateToken();
  // The request's completion and the signature commit together, or neither does.
  const signature = await db.transaction(async (tx) => {
    const completed = await repo.decideRequest(tx, request.id, 'completed', null);
    if (completed === undefined) return undefined;
    return repo.insertSignature(
      tx,
      {
        id: uuidv7(),
        request_id: completed.id,
        edition_id: completed.edition_id,
        signatory_name: completed.signatory_name,
        signatory_title: completed.signatory_title,
        image_url: imageUrl,
        revoke_token_hash: hashToken(revokeToken),
      },
      REVOKE_TOKEN_DAYS,
    );
  });
  // Lost a race (another decision, or expiry, since the token was checked): outside the rolled
  // back transaction, so a lazy expiry sticks.
  if (signature === undefined) return refuseDecision(db, request.id);
  return {
    ...toSignature(signature),
    revoke_token: revokeToken,
    revoke_expires_at: signature.revoke_expires_at.toISOString(),
  };
}

export async function denyRequest(db: Database, token: unknown, body: ReasonBody) {
  const opened = await openRequest(db, token);
  if (opened.request.status !== 'pending') throw notPending(opened.request.status);
  const denied = await repo.decideRequest(db, opened.request.id, 'denied', body.reason ?? null);
  if (denied === undefined) return refuseDecision(db, opened.request.id);
  return toView({ ...opened, request: denied });
}

export async function revokeSignature(db: Database, token: unknown) {
  const signature = await findRevocable(db, token);
  if (signature.status !== 'active') throw conflict('already_revoked', 'The signature is already revoked');
  const revoked = await repo.revokeSignature(db, signature.id);
  if (revoked === undefined) {
    // Revoked concurrently (409), or the revoke token expired in between (401).
    await findRevocable(db, token);
    throw conflict('already_revoked', 'The signature is already revoked');
  }
  return toSignature(revoked);
}

// ---------- public ----------

export async function listSignatures(
  db: Database,
  editionId: string,
  actor: Identity | null,
  window: Window,
) {
  await requireReadableEdition(db, editionId, actor);
  const page = await repo.listActiveSignatures(db, editionId, window);
  return { ...page, items: page.items.map(toSignature) };
}
