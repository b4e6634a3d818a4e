/**
 * Shared setup of the signature tests (not a test file itself): a test app, a team (owner, admin,
 * staff, outsider), a published event with a published edition, and helpers to make requests,
 * sign them and push them past their expiry through the database (no fake timers).
 */
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { eq, type SQL, sql } from 'drizzle-orm';
import { expectError, expectOk } from '../../../../test/assertions.ts';
import type { ApiResponse, TestApp, TestUser } from '../../../../test/harness.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import type { Event } from '../events/events.schemas.ts';
import { lateBound, startedBy, startTeam, type Team, withLabel } from '../events.fixtures.ts';
import type { Member } from '../members/members.schemas.ts';
import type {
  CreatedSignatureRequest,
  FulfilledSignature,
  Signature,
  SignatureRequest,
  SignatureRequestView,
} from './signatures.schemas.ts';
import { signatureRequests, signatures } from './signatures.table.ts';

export { expectInvalid, ISO, UNKNOWN_ID } from '../events.fixtures.ts';
/** Well formed (43 base64url characters), never issued. */
export const UNKNOWN_TOKEN = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export const PUBLIC_BASE_URL = 'https://convene.example.org';

export const REQUEST_KEYS = [
  'created_at',
  'created_by',
  'decided_at',
  'edition_id',
  'expires_at',
  'id',
  'reason',
  'signatory_email',
  'signatory_name',
  'signatory_title',
  'status',
  'updated_at',
];
export const VIEW_KEYS = [
  'created_at',
  'decided_at',
  'edition',
  'event',
  'expires_at',
  'id',
  'reason',
  'requested_by',
  'signatory_email',
  'signatory_name',
  'signatory_title',
  'status',
];
export const SIGNATURE_KEYS = [
  'created_at',
  'edition_id',
  'id',
  'image_url',
  'request_id',
  'revoked_at',
  'signatory_name',
  'signatory_title',
  'status',
];

/** The smallest valid PNG (1×1, transparent), as a data URL. */
export const PNG_DATA_URL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A PNG's bytes as a `data:image/png;base64,` URL. */
export const pngDataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/**
 * A valid PNG of exactly `bytes` bytes: the 1 x 1 PNG_DATA_URL with a private ancillary chunk
 * (which readers skip) filling the rest.
 */
export function paddedPng(bytes: number): Buffer {
  const base = Buffer.from(PNG_DATA_URL.slice('data:image/png;base64,'.length), 'base64');
  const iend = base.length - 12;
  const length = bytes - base.length - 12;
  const chunk = Buffer.alloc(12 + length);
  chunk.writeUInt32BE(length, 0);
  chunk.write('prVt', 4, 'latin1');
  chunk.fill(7, 8, 8 + length);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + length)), 8 + length);
  return Buffer.concat([base.subarray(0, iend), chunk, base.subarray(iend)]);
}

/** Size, bit depth and colour type of a PNG data URL, from its IHDR. */
export function pngHeader(url: string) {
  assert.match(url, /^data:image\/png;base64,/);
  const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  return {
    bytes: png.length,
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    bitDepth: png[24],
    colorType: png[25],
    chunks: chunkTypes(png),
  };
}

function chunkTypes(png: Buffer): string[] {
  const types: string[] = [];
  for (let at = 8; at + 8 <= png.length; at += 12 + png.readUInt32BE(at)) {
    types.push(png.toString('latin1', at + 4, at + 8));
  }
  return types;
}

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid.toString(36)}-${(counter++).toString(36)}`;

/** Asserts an error envelope, with a label for the failure message. */
export function expectErrorAs(response: ApiResponse, label: string, status: number, code: string) {
  return withLabel(label, () => expectError(response, status, code));
}

export interface SignatureWorld extends Team {
  event: { id: string; name: string };
  /** A published edition of the published event. */
  edition: { id: string; name: string; starts_at: string; ends_at: string; location_name: string | null };
}

export async function startWorld(): Promise<SignatureWorld> {
  const team = await startTeam({ PUBLIC_BASE_URL });
  const { t, owner, admin, staff } = team;
  const event = await createEvent(t, owner, { admin, staff });
  const edition = await createEdition(t, owner, event.id, { publish: true });
  return { ...team, event, edition };
}

/** The world of the enclosing `describe` (see `startedBy`); its properties are read when used. */
export function useWorld(): SignatureWorld {
  return lateBound(startedBy(startWorld));
}

/** A published event of `owner` (a draft with `isDraft`), with `admin` and `staff` as members. */
export async function createEvent(
  t: TestApp,
  owner: TestUser,
  members: { admin?: TestUser; staff?: TestUser } = {},
  { isDraft = false } = {},
) {
  const event = expectOk(
    await t.post<Event>('/events', { token: owner.token, body: { name: 'Signed Conf', slug: unique('ev') } }),
    201,
  );
  for (const [role, who] of Object.entries(members)) {
    expectOk(
      await t.post<Member>(`/events/${event.id}/members`, {
        token: owner.token,
        body: { email: who.email, role },
      }),
      201,
    );
  }
  if (!isDraft) expectOk(await t.post<Event>(`/events/${event.id}/publish`, { token: owner.token }), 200);
  return event;
}

let slot = 0;
/** A new edition of `eventId` (a draft unless `publish`), each in its own time slot. */
export async function createEdition(t: TestApp, owner: TestUser, eventId: string, { publish = false } = {}) {
  slot += 1;
  const start = Date.UTC(2031, 0, 1) + slot * 100 * 3_600_000;
  const edition = expectOk(
    await t.post<Edition>(`/events/${eventId}/editions`, {
      token: owner.token,
      body: {
        name: `Edition ${slot}`,
        slug: unique('ed'),
        starts_at: new Date(start).toISOString(),
        ends_at: new Date(start + 48 * 3_600_000).toISOString(),
        location_name: 'Lisbon',
      },
    }),
    201,
  );
  if (!publish) return edition;
  return expectOk(
    await t.post<Edition>(`/events/${eventId}/editions/${edition.id}/publish`, { token: owner.token }),
    200,
  );
}

export function signatureHelpers(getWorld: () => SignatureWorld) {
  const w = () => getWorld();
  const helpers = {
    /** Creates a request (201) and returns its data, `token` and `fulfill_url` included. */
    async createRequest(fields: Record<string, unknown> = {}, editionId = w().edition.id, by = w().owner) {
      return expectOk(
        await w().t.post<CreatedSignatureRequest>(`/editions/${editionId}/signature-requests`, {
          token: by.token,
          body: { signatory_name: 'Marta Ferreira', signatory_email: 'marta@example.com', ...fields },
        }),
        201,
        'events',
      );
    },
    byToken: (token: string) =>
      w().t.get<SignatureRequestView>(`/signature-requests/by-token?token=${token}`),
    fulfil: (token: string, imageUrl = 'https://cdn.example.com/sig.png') =>
      w().t.post<FulfilledSignature>(`/signature-requests/fulfill?token=${token}`, {
        body: { image_url: imageUrl },
      }),
    deny: (token: string, body?: unknown) =>
      w().t.post<SignatureRequestView>(
        `/signature-requests/deny?token=${token}`,
        body === undefined ? {} : { body },
      ),
    cancel: (requestId: string, by = w().owner, body?: unknown) =>
      w().t.post<SignatureRequest>(`/signature-requests/${requestId}/cancel`, {
        token: by.token,
        ...(body === undefined ? {} : { body }),
      }),
    revoke: (token: string) => w().t.post<Signature>(`/signatures/revoke?token=${token}`),
    async listRequests(query = '', editionId = w().edition.id, by = w().owner) {
      return expectOk(
        await w().t.get<SignatureRequest[]>(`/editions/${editionId}/signature-requests?limit=100${query}`, {
          token: by.token,
        }),
        200,
        'events',
      );
    },
    async listSignatures(editionId = w().edition.id) {
      return expectOk(
        await w().t.get<Signature[]>(`/editions/${editionId}/signatures?limit=100`),
        200,
        'events',
      );
    },
    /** A request signed with `imageUrl`: the request and the 201 data (with `revoke_token`). */
    async signedRequest(fields: Record<string, unknown> = {}) {
      const request = await helpers.createRequest(fields);
      const signature = expectOk(await helpers.fulfil(request.token), 201, 'events');
      return { request, signature };
    },
    /** Moves a request's expiry into the past, as time would. */
    async expireRequest(requestId: string) {
      await w()
        .t.db.update(signatureRequests)
        .set({ expires_at: sql`now() - interval '1 minute'` })
        .where(eq(signatureRequests.id, requestId));
    },
    async expireRevokeToken(signatureId: string) {
      await w()
        .t.db.update(signatures)
        .set({ revoke_expires_at: sql`now() - interval '1 second'` })
        .where(eq(signatures.id, signatureId));
    },
    /** The number `n` a `select count(*)::int as n …` query returns. */
    async count(query: SQL): Promise<number> {
      const result = (await w().t.db.execute(query)) as unknown as { rows: Array<{ n: number }> };
      return Number(result.rows[0]?.n);
    },
    async storedRequest(requestId: string) {
      const [row] = await w()
        .t.db.select()
        .from(signatureRequests)
        .where(eq(signatureRequests.id, requestId));
      assert.ok(row, 'the request row exists');
      return row;
    },
    async storedSignature(signatureId: string) {
      const [row] = await w().t.db.select().from(signatures).where(eq(signatures.id, signatureId));
      assert.ok(row, 'the signature row exists');
      return row;
    },
  };
  return helpers;
}
