/**
 * Shared setup of the events module tests (not a test file itself): a test app with a team of
 * users, events with that team as members, editions, and the response shapes the tests compare.
 *
 * Each `describe` calls `useTeam()` (which starts the team in a `before` hook and closes it in an
 * `after` hook) and takes its helpers from `eventFixtures(() => team)`; the helpers read the team
 * when they run, after that hook.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { expectError, expectFields, expectOk } from '../../../test/assertions.ts';
import {
  type ApiResponse,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '../../../test/harness.ts';
import type { Edition } from './editions/editions.schemas.ts';
import type { Event, MyEvent } from './events/events.schemas.ts';
import type { Member } from './members/members.schemas.ts';

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

/** Runs the assertions of `check`, with `label` at the head of their failure message. */
export function withLabel<T>(label: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new Error(`${label}: ${(error as Error).message}`);
  }
}

/** Asserts a 400 VALIDATION_ERROR naming `fields`, with the case in the failure message. */
export function expectInvalid(response: ApiResponse, label: string, ...fields: string[]): void {
  withLabel(label, () => expectFields(response, ...fields));
}

/** Asserts the 400 BAD_REQUEST of a body that is not JSON, sent to `url` with `method`. */
export async function expectMalformedJson(
  t: TestApp,
  url: string,
  by: TestUser,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' = 'POST',
): Promise<void> {
  expectError(
    await t.request(method, url, {
      token: by.token,
      payload: MALFORMED_JSON,
      contentType: 'application/json',
    }),
    400,
    'BAD_REQUEST',
  );
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

/** A new test app (with `env` over the test defaults) and its four actors. */
export async function startTeam(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<Team> {
  const t = await createTestApp(env, options);
  return {
    t,
    owner: await t.actor('owner'),
    admin: await t.actor('admin'),
    staff: await t.actor('staff'),
    outsider: await t.actor('outsider'),
  };
}

/** An object that reads every property from `get()` at the moment it is read. */
export function lateBound<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(get(), key),
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(get(), key),
  });
}

/**
 * Registers, in the enclosing `describe`, a `before` hook that runs `start` (ahead of the hooks
 * registered after this call) and an `after` hook that closes its app; answers a getter of what
 * `start` made, for hooks and tests.
 */
export function startedBy<T extends { t: TestApp }>(start: () => Promise<T>): () => T {
  let started: T | undefined;
  before(async () => {
    started = await start();
  });
  after(() => started?.t.close());
  return () => {
    if (started === undefined) throw new Error('started in a before hook: use it in hooks and tests');
    return started;
  };
}

/**
 * The team of the enclosing `describe` (see `startedBy`), its app made with `env` and `options` over the
 * test defaults. The app and users returned stand for the
 * started ones, each property read when used: destructure them at once, use them in hooks and tests.
 */
export function useTeam(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: TestAppOptions = {},
): Team {
  // `env` may be a function: read when the app starts, after earlier `before` hooks (a mail server's URL).
  const current = startedBy(() => startTeam(typeof env === 'function' ? env() : env, options));
  return {
    t: lateBound(() => current().t),
    owner: lateBound(() => current().owner),
    admin: lateBound(() => current().admin),
    staff: lateBound(() => current().staff),
    outsider: lateBound(() => current().outsider),
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
      await app().post<Event>('/events', {
        token: by.token,
        body: { name: 'Test event', slug: newSlug(), ...fields },
      }),
      201,
      'events',
    );
  const publishEvent = async (by: TestUser, eventId: string) =>
    expectOk(await app().post<Event>(`/events/${eventId}/publish`, { token: by.token }), 200, 'events');
  const addMember = async (by: TestUser, eventId: string, who: TestUser, role: 'admin' | 'staff') =>
    expectOk(
      await app().post<Member>(`/events/${eventId}/members`, {
        token: by.token,
        body: { email: who.email, role },
      }),
      201,
      'events',
    );

  /** A new event of `owner` with `admin` and `staff` as members; published unless `isDraft`. */
  async function createTeamEvent({
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
  }

  /** A draft edition from hour `from` to hour `to` (see `at`), created by `by` (the owner). */
  async function createEdition(
    eventId: string,
    from: number,
    to: number,
    fields: Record<string, unknown> = {},
    by: TestUser = getTeam().owner,
  ) {
    return expectOk(
      await app().post<Edition>(`/events/${eventId}/editions`, {
        token: by.token,
        body: { name: 'An edition', slug: newSlug('ed'), starts_at: at(from), ends_at: at(to), ...fields },
      }),
      201,
      'events',
    );
  }
  async function publishEdition(eventId: string, editionId: string, by: TestUser = getTeam().owner) {
    return expectOk(
      await app().post<Edition>(`/events/${eventId}/editions/${editionId}/publish`, { token: by.token }),
      200,
      'events',
    );
  }

  return {
    createEvent,
    publishEvent,
    addMember,
    listMembers: async (by: TestUser, eventId: string) =>
      expectOk(
        await app().get<Member[]>(`/events/${eventId}/members?limit=100`, { token: by.token }),
        200,
        'events',
      ),
    myEvents: async (by: TestUser) =>
      expectOk(await app().get<MyEvent[]>('/events/mine?limit=100', { token: by.token }), 200, 'events'),
    createTeamEvent,
    createEdition,
    publishEdition,
    /** A new edition from hour 0 to 48 of a new team event; both published unless told otherwise. */
    async freshEdition({ isDraft = false, isDraftEvent = false } = {}) {
      const event = await createTeamEvent({ isDraft: isDraftEvent });
      const created = await createEdition(event.id, 0, 48);
      return isDraft ? created : publishEdition(event.id, created.id);
    },
    /** A published team event and its draft edition (hours 0 to 48) named 'Fixture edition'. */
    async createFixtureEdition() {
      const event = await createTeamEvent();
      return { event, edition: await createEdition(event.id, 0, 48, { name: 'Fixture edition' }) };
    },
    publicList: async (eventId: string) =>
      expectOk(await app().get<Edition[]>(`/events/${eventId}/editions?limit=100`), 200, 'events'),
    async draftList(eventId: string, by: TestUser = getTeam().owner) {
      return expectOk(
        await app().get<Edition[]>(`/events/${eventId}/editions/drafts?limit=100`, { token: by.token }),
        200,
        'events',
      );
    },

    /**
     * Asserts that `caller` gets, on each route of `eventId`, exactly the 404 NOT_FOUND an unknown
     * event gets: a draft exists only for its members, so a non-member learns nothing about it
     * (docs/reference/auth.md).
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
        withLabel(label, () => {
          expectError(hidden, 404, 'NOT_FOUND');
          expectError(unknown, 404, 'NOT_FOUND');
        });
        assert.deepEqual(
          { ...hidden.body, timestamp: undefined },
          { ...unknown.body, timestamp: undefined },
          `${label}: a hidden draft answers like an unknown event`,
        );
      }
    },
  };
}
