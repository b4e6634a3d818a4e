/**
 * Shared setup of the events module tests (not a test file itself): a test app with a team of
 * users, events with that team as members, editions, and the response shapes the tests compare.
 *
 * Each test file calls `startTeam()` in its `before` hook and takes its helpers from
 * `eventFixtures(() => team)`; the helpers read the team when they run, after that hook.
 */
import assert from 'node:assert/strict';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import { type ApiResponse, createTestApp, type TestApp, type TestUser } from '../../../test/harness.ts';

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const UNKNOWN_ID = '01937a4e-0000-7000-8000-0000000000ff';
export const MALFORMED_JSON = '{"name": "Broken", "slug": ';

export const EVENT_KEYS = [
  'banner_url',
  'contact_email',
  'created_at',
  'description',
  'id',
  'logo_url',
  'name',
  'owner_id',
  'slug',
  'status',
  'updated_at',
];
export const MEMBER_KEYS = ['created_at', 'email', 'role', 'user_id'];
export const EDITION_KEYS = [
  'banner_url',
  'contact_email',
  'created_at',
  'created_by',
  'deleted_at',
  'description',
  'ends_at',
  'event_id',
  'id',
  'is_draft',
  'location_description',
  'location_name',
  'logo_url',
  'name',
  'registration_opens_at',
  'slug',
  'starts_at',
  'tagline',
  'updated_at',
];

let slugCount = 0;
/** A slug no other test of this process uses. */
export const newSlug = (prefix = 'ev') =>
  `${prefix}-${process.pid.toString(36)}-${(slugCount++).toString(36)}`;

/** `hours` hours after 2030-01-01T00:00Z, as the service writes it. */
export const at = (hours: number) => new Date(Date.UTC(2030, 0, 1) + hours * 3_600_000).toISOString();

export const idsOf = (items: Array<{ id: string }>) => items.map((item) => item.id);

/** Asserts a 400 VALIDATION_ERROR naming `fields`, with the case in the failure message. */
export function expectInvalid(response: ApiResponse, label: string, ...fields: string[]): void {
  try {
    expectFields(response, ...fields);
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}

/** A test app and the people the tests act as; all four are existing actors. */
export interface Team {
  t: TestApp;
  owner: TestUser;
  admin: TestUser;
  staff: TestUser;
  /** Never a member of the events the fixtures make. */
  outsider: TestUser;
}

export async function startTeam(): Promise<Team> {
  const t = await createTestApp();
  return {
    t,
    owner: await t.actor('owner'),
    admin: await t.actor('admin'),
    staff: await t.actor('staff'),
    outsider: await t.actor('outsider'),
  };
}

/** A route of one event: the URL is built from the event id. */
export interface EventRoute {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: (eventId: string) => string;
  body?: unknown;
}

export function eventFixtures(getTeam: () => Team) {
  const app = () => getTeam().t;

  const createEvent = async (by: TestUser, fields: Record<string, unknown> = {}) =>
    expectOk(
      await app().post('/events', {
        token: by.token,
        body: { name: 'Test event', slug: newSlug(), ...fields },
      }),
      201,
      'events',
    );
  const publishEvent = async (by: TestUser, eventId: string) =>
    expectOk(await app().post(`/events/${eventId}/publish`, { token: by.token }), 200, 'events');
  const addMember = async (by: TestUser, eventId: string, who: TestUser, role: 'admin' | 'staff') =>
    expectOk(
      await app().post(`/events/${eventId}/members`, { token: by.token, body: { email: who.email, role } }),
      201,
      'events',
    );

  return {
    createEvent,
    publishEvent,
    addMember,
    listMembers: async (by: TestUser, eventId: string) =>
      expectOk(await app().get(`/events/${eventId}/members?limit=100`, { token: by.token }), 200, 'events'),
    myEvents: async (by: TestUser) =>
      expectOk(await app().get('/events/mine?limit=100', { token: by.token }), 200, 'events'),

    /** A new event of `owner` with `admin` and `staff` as members; published unless `isDraft`. */
    async createTeamEvent({
      isDraft = false,
      name = 'Team event',
    }: {
      isDraft?: boolean;
      name?: string;
    } = {}) {
      const { owner, admin, staff } = getTeam();
      const created = await createEvent(owner, { name });
      await addMember(owner, created.id, admin, 'admin');
      await addMember(owner, created.id, staff, 'staff');
      return isDraft ? created : publishEvent(owner, created.id);
    },

    /** A draft edition from hour `from` to hour `to` (see `at`), created by `by` (the owner). */
    async createEdition(
      eventId: string,
      from: number,
      to: number,
      fields: Record<string, unknown> = {},
      by: TestUser = getTeam().owner,
    ) {
      return expectOk(
        await app().post(`/events/${eventId}/editions`, {
          token: by.token,
          body: { name: 'An edition', slug: newSlug('ed'), starts_at: at(from), ends_at: at(to), ...fields },
        }),
        201,
        'events',
      );
    },
    async publishEdition(eventId: string, editionId: string, by: TestUser = getTeam().owner) {
      return expectOk(
        await app().post(`/events/${eventId}/editions/${editionId}/publish`, { token: by.token }),
        200,
        'events',
      );
    },
    publicList: async (eventId: string) =>
      expectOk(await app().get(`/events/${eventId}/editions?limit=100`), 200, 'events'),
    async draftList(eventId: string, by: TestUser = getTeam().owner) {
      return expectOk(
        await app().get(`/events/${eventId}/editions/drafts?limit=100`, { token: by.token }),
        200,
        'events',
      );
    },

    /**
     * Asserts that `caller` gets, on each route of `eventId`, exactly the 404 NOT_FOUND an unknown
     * event gets: a draft exists only for its members, so a non-member learns nothing about it
     * (contract section 2).
     */
    async expectHiddenEvent(caller: TestUser, eventId: string, routes: EventRoute[]) {
      for (const route of routes) {
        const send = (id: string) =>
          app().request(route.method, route.url(id), {
            token: caller.token,
            ...(route.body === undefined ? {} : { body: route.body }),
          });
        const label = `${route.method} ${route.url(eventId)}`;
        const [hidden, unknown] = [await send(eventId), await send(UNKNOWN_ID)];
        try {
          expectError(hidden, 404, 'NOT_FOUND');
          expectError(unknown, 404, 'NOT_FOUND');
        } catch (error) {
          throw new Error(`${label}: ${(error as Error).message}`);
        }
        assert.deepEqual(
          { ...hidden.body, timestamp: undefined },
          { ...unknown.body, timestamp: undefined },
          `${label}: a hidden draft answers like an unknown event`,
        );
      }
    },
  };
}
