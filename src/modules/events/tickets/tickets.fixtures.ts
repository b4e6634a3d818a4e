/**
 * Shared setup of the ticket, registration and badge tests (not a test file itself): editions of
 * team events (see events.fixtures.ts), ticket types, registrations, and the reads the tests check
 * side effects through.
 */
import { expectOk } from '../../../../test/assertions.ts';
import type { TestUser } from '../../../../test/harness.ts';
import type { BadgeEmission, BadgeTemplate, UserBadges } from '../badges/badges.schemas.ts';
import { at, eventFixtures, type Team } from '../events.fixtures.ts';
import type { Registration, RegistrationListItem } from '../registrations/registrations.schemas.ts';
import type { TicketType } from './tickets.schemas.ts';

export const TICKET_TYPE_KEYS = [
  'access_level',
  'confirmed_count',
  'created_at',
  'currency',
  'edition_id',
  'held_count',
  'id',
  'max_quantity',
  'name',
  'price_cents',
  'remaining',
  'updated_at',
];
export const REGISTRATION_KEYS = [
  'cancelled_at',
  'checkout_url',
  'created_at',
  'created_by',
  'edition_id',
  'hold_expires_at',
  'id',
  'intent_id',
  'status',
  'status_reason',
  'ticket_type_id',
  'updated_at',
  'user_id',
];
/** A registration as the edition's list gives it: who, which ticket, and the money (null to staff). */
export const REGISTRATION_LIST_ITEM_KEYS = [
  ...REGISTRATION_KEYS,
  'email',
  'name',
  'ticket_name',
  'amount_cents',
  'refunded_cents',
  'currency',
  'payment_status',
].sort();
export const TEMPLATE_KEYS = [
  'created_at',
  'deleted_at',
  'design_data',
  'edition_id',
  'id',
  'name',
  'origin',
  'scope',
  'ticket_type_id',
  'updated_at',
];
export const EMISSION_KEYS = [
  'emitted_at',
  'holder_email',
  'id',
  'origin',
  'status',
  'status_reason',
  'template_id',
  'template_name',
  'ticket_name',
  'updated_at',
  'user_id',
];

/** Hours from 2030-01-01 (see `at`) of an edition that ended long ago: 2020-01-01 to 2020-01-02. */
export const PAST = { from: -87_672, to: -87_648 };

export function ticketFixtures(getTeam: () => Team) {
  const app = () => getTeam().t;
  const events = eventFixtures(getTeam);

  /**
   * A new team event (owner, admin, staff as members) with one edition from hour `from` to `to`.
   * Both are published unless `isDraft` / `isDraftEvent`.
   */
  async function setupEdition({
    from = 0,
    to = 48,
    isDraft = false,
    isDraftEvent = false,
    fields = {},
  }: {
    from?: number;
    to?: number;
    isDraft?: boolean;
    isDraftEvent?: boolean;
    fields?: Record<string, unknown>;
  } = {}) {
    const event = await events.createTeamEvent({ isDraft: isDraftEvent, name: 'Ticketed event' });
    const edition = await events.createEdition(event.id, from, to, { name: 'Ticketed edition', ...fields });
    const published = isDraft ? edition : await events.publishEdition(event.id, edition.id);
    return { event, edition: published };
  }

  async function createTicketType(
    editionId: string,
    fields: Record<string, unknown> = {},
    by: TestUser = getTeam().owner,
  ) {
    return expectOk(
      await app().post<TicketType>(`/editions/${editionId}/ticket-types`, {
        token: by.token,
        body: { name: 'General', price_cents: 0, access_level: 1, ...fields },
      }),
      201,
      'events',
    );
  }

  return {
    ...events,
    setupEdition,
    createTicketType,
    /** Registers `by` (or, with `email`, that person) for the ticket type; answers the raw response. */
    register: (by: TestUser, editionId: string, ticketTypeId: string, email?: string) =>
      app().post<Registration>(`/editions/${editionId}/registrations`, {
        token: by.token,
        body: { ticket_type_id: ticketTypeId, ...(email === undefined ? {} : { email }) },
      }),
    cancel: (by: TestUser, registrationId: string) =>
      app().post<Registration>(`/registrations/${registrationId}/cancel`, { token: by.token }),
    async ticketTypes(editionId: string, by?: TestUser) {
      return expectOk(
        await app().get<TicketType[]>(`/editions/${editionId}/ticket-types?limit=100`, { token: by?.token }),
        200,
        'events',
      );
    },
    async registrations(editionId: string, by: TestUser = getTeam().owner) {
      return expectOk(
        await app().get<RegistrationListItem[]>(`/editions/${editionId}/registrations?limit=100`, {
          token: by.token,
        }),
        200,
        'events',
      );
    },
    async emissions(editionId: string, by: TestUser = getTeam().owner) {
      return expectOk(
        await app().get<BadgeEmission[]>(`/editions/${editionId}/badges/emissions?limit=100`, {
          token: by.token,
        }),
        200,
        'events',
      );
    },
    async userBadges(userId: string) {
      return expectOk(await app().get<UserBadges>(`/users/${userId}/badges`), 200, 'events');
    },
    async createTemplate(
      editionId: string,
      fields: Record<string, unknown> = {},
      by: TestUser = getTeam().owner,
    ) {
      return expectOk(
        await app().post<BadgeTemplate>(`/editions/${editionId}/badges`, {
          token: by.token,
          body: { name: 'Badge', design_data: { accent_color: '#0b3d91' }, ...fields },
        }),
        201,
        'events',
      );
    },
    at,
  };
}

/** The emission of `userId` with this origin in a list of emissions. */
export const emissionOf = (emissions: BadgeEmission[], userId: string, origin: 'participant' | 'staff') =>
  emissions.find((emission) => emission.user_id === userId && emission.origin === origin);
