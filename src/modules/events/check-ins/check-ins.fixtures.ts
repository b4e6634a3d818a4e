/**
 * Shared setup of the attendance tests (not a test file itself): a published edition with two
 * ticket types, programs with access rules, attendees who registered (with names in their
 * tokens), and the badge codes as an organizer gets them, from the print data's `action_url`.
 */
import { expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { BadgePrintItem } from '../badges/badges.schemas.ts';
import type { Team } from '../events.fixtures.ts';
import type { Program } from '../programs/programs.schemas.ts';
import type { Registration } from '../registrations/registrations.schemas.ts';
import { ticketFixtures } from '../tickets/tickets.fixtures.ts';
import type { CheckInAnswer } from './check-ins.schemas.ts';

const HOUR = 3_600_000;

export function attendanceFixtures(getTeam: () => Team) {
  const app = () => getTeam().t;
  const tickets = ticketFixtures(getTeam);

  async function createProgram(editionId: string, fields: Record<string, unknown> = {}) {
    return expectOk(
      await app().post<Program>(`/editions/${editionId}/programs`, {
        token: getTeam().owner.token,
        body: { kind: 'activity', name: 'Workshop', ...fields },
      }),
      201,
      'events',
    );
  }

  /** A new attendee (an actor whose token carries `name` when given) registered for the ticket type. */
  async function attendee(editionId: string, ticketTypeId: string, name?: string): Promise<TestUser> {
    const person = await app().actor('attendee', name === undefined ? undefined : { name });
    expectOk(await tickets.register(person, editionId, ticketTypeId), 201, 'events');
    return person;
  }

  /** What each active badge's QR code holds, by emission id (organizer's print data). */
  async function badgeUrls(editionId: string): Promise<Map<string, { url: string; item: BadgePrintItem }>> {
    const items = expectOk(
      await app().get<BadgePrintItem[]>(`/editions/${editionId}/badges/print`, {
        token: getTeam().owner.token,
      }),
      200,
      'events',
    );
    return new Map(items.map((item) => [item.emission_id, { url: item.variables.action_url, item }]));
  }

  /** The badge URL of a person's badge of this origin. */
  async function badgeUrlOf(
    editionId: string,
    userId: string,
    origin: 'participant' | 'staff' = 'participant',
  ) {
    for (const { url, item } of (await badgeUrls(editionId)).values()) {
      if (item.user_id === userId && item.origin === origin) return url;
    }
    throw new Error(`no active ${origin} badge of ${userId}`);
  }

  const scan = (editionId: string, body: Record<string, unknown>, by: TestUser = getTeam().staff) =>
    app().post<CheckInAnswer>(`/editions/${editionId}/check-ins`, { token: by.token, body });

  /**
   * A published edition (owner, admin, staff as members) with a ticket type of access level 1 and
   * one of level 5. By default it is under way (it started an hour ago and lasts 48 hours), so
   * check-ins are open and certificates may be issued; `startsIn` (hours from now, may be negative)
   * and `lasts` (hours) place it elsewhere.
   */
  async function setupAttendance({ startsIn = -1, lasts = 48 }: { startsIn?: number; lasts?: number } = {}) {
    const startsAt = Date.now() + startsIn * HOUR;
    const { event, edition } = await tickets.setupEdition({
      fields: {
        starts_at: new Date(startsAt).toISOString(),
        ends_at: new Date(startsAt + lasts * HOUR).toISOString(),
      },
    });
    const general = await tickets.createTicketType(edition.id, { name: 'General', access_level: 1 });
    const vip = await tickets.createTicketType(edition.id, { name: 'VIP', access_level: 5 });
    return { event, edition, general, vip };
  }

  return {
    ...tickets,
    createProgram,
    attendee,
    badgeUrls,
    badgeUrlOf,
    scan,
    setupAttendance,
    registrationOf: async (editionId: string, userId: string) =>
      (await tickets.registrations(editionId)).find(
        (registration) => registration.user_id === userId,
      ) as unknown as Registration,
  };
}
