/** SQL of the sales summary (docs/reference/tickets.md, "Sales"): the registrations' side of it. */
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { queryRowsPrepared } from '../../../kernel/db/raw.ts';
import { ticketTypes } from '../tickets/index.ts';
import { registrations } from './registrations.table.ts';

/** One ticket type of the edition with its registrations counted by state. */
export interface TicketTypeCounts {
  ticket_type_id: string;
  name: string;
  price_cents: number;
  currency: string | null;
  confirmed: number;
  /** `pending_payment` with its hold not ended yet. */
  held: number;
  cancelled: number;
  expired: number;
  refunded: number;
  /** Confirmed through a checkout (with an intent). */
  confirmed_paid: number;
}

/**
 * Every ticket type of the edition (those nobody registered for too), oldest first, with its
 * registrations counted by state: one pass over the edition's registrations (its index), grouped.
 * A `pending_payment` registration whose hold ended but whose expiry job has not run yet is
 * neither held nor expired: it holds no seat any more and is not yet called expired.
 */
export function countRegistrationsByTicketType(db: Executor, editionId: string) {
  return queryRowsPrepared<TicketTypeCounts>(
    db,
    'registrations_by_ticket_type',
    sql`select t.id as ticket_type_id, t.name, t.price_cents, t.currency,
               coalesce(c.confirmed, 0)::int as confirmed, coalesce(c.held, 0)::int as held,
               coalesce(c.cancelled, 0)::int as cancelled, coalesce(c.expired, 0)::int as expired,
               coalesce(c.refunded, 0)::int as refunded, coalesce(c.confirmed_paid, 0)::int as confirmed_paid
          from ${ticketTypes} t
          left join (
            select ticket_type_id,
                   count(*) filter (where status = 'confirmed') as confirmed,
                   count(*) filter (where status = 'pending_payment' and hold_expires_at > now()) as held,
                   count(*) filter (where status = 'cancelled') as cancelled,
                   count(*) filter (where status = 'expired') as expired,
                   count(*) filter (where status = 'refunded') as refunded,
                   count(*) filter (where status = 'confirmed' and intent_id is not null) as confirmed_paid
              from ${registrations}
             where edition_id = ${editionId}
             group by ticket_type_id
          ) c on c.ticket_type_id = t.id
         where t.edition_id = ${editionId}
         order by t.created_at, t.id`,
  );
}
