/**
 * The organisers' view of sales (docs/reference/tickets.md, "Sales"): the registrations' listing with
 * its search and filters, their CSV export, and the sales summary. Money (what a checkout charged,
 * refunds, fees) is read from the payments module through the port and is shown to owners and
 * admins only: staff see registrations, never money (docs/reference/tickets.md, "Sales").
 */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Coalescer } from '../../../kernel/coalesce.ts';
import type { Database } from '../../../kernel/db/client.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { AppError } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import type { CheckoutPayment, CheckoutSales, PaymentsPort } from '../../../kernel/payments-port.ts';
import { requireEditionRole } from '../editions/index.ts';
import { isEventRole } from '../events/index.ts';
import { realName } from '../holder-name.ts';
import {
  listRegistrationsAfter,
  listRegistrations as listRows,
  type RegistrationFilter,
  type RegistrationListRow,
  searchRegistrationsAsMember,
} from './registrations.repository.ts';
import { csvLine } from './sales.csv.ts';
import { countRegistrationsByTicketType, type TicketTypeCounts } from './sales.repository.ts';
import type { SalesCounts, SalesMoney, SalesSummary } from './sales.schemas.ts';

export interface SalesDeps {
  db: Database;
  payments: PaymentsPort;
}

/** The summaries being computed, by edition (`salesSummary`): one app's, made with its routes. */
export type SummaryRuns = Coalescer<Omit<SalesSummary, 'edition_id'>>;

/** A listed registration's money: null for a free one, and for a caller who sees no money. */
interface RowMoney {
  amount_cents: number | null;
  refunded_cents: number | null;
  currency: string | null;
  payment_status: string | null;
}

/**
 * The rows with their holder's name as given (an address is no name) and, when shown, their money
 * (null for a free row and for a caller who sees none). Each row gets the fields in place: the rows
 * are this request's own. Copied with a spread, each copy survived into the old generation, and
 * under load the search forced a full collection every second (bench/README.md, "Organiser console").
 */
async function withMoney(
  { db, payments }: SalesDeps,
  rows: RegistrationListRow[],
  showsMoney: boolean,
): Promise<Array<RegistrationListRow & RowMoney>> {
  const ids = showsMoney ? rows.flatMap((row) => (row.intent_id === null ? [] : [row.intent_id])) : [];
  const byIntent = new Map<string, CheckoutPayment>(
    (await payments.paymentsOf(db, ids)).map((payment) => [payment.intentId, payment]),
  );
  return rows.map((row) => {
    const payment = row.intent_id === null ? undefined : byIntent.get(row.intent_id);
    const listed: RegistrationListRow & Partial<RowMoney> = row;
    listed.name = realName(row.name);
    listed.amount_cents = payment?.amountCents ?? null;
    listed.refunded_cents = payment?.refundedCents ?? null;
    listed.currency = payment?.currency ?? null;
    listed.payment_status = payment?.status ?? null;
    return listed as RegistrationListRow & RowMoney;
  });
}

/**
 * Staff and above: the edition's registrations, filtered, newest first, paged; owners and admins
 * also get each one's money.
 */
export async function listRegistrations(
  deps: SalesDeps,
  editionId: string,
  actor: Identity,
  filter: RegistrationFilter,
  window: Window,
) {
  // A search that finds rows is one statement with the role check (any member is staff or above).
  const found =
    filter.q === undefined
      ? undefined
      : await searchRegistrationsAsMember(
          deps.db,
          editionId,
          actor.userId,
          { ...filter, q: filter.q },
          window,
        );
  const { role, page } = found ?? {
    // No rows, or no search: the role check first (404, 403), then the page and its total.
    role: (await requireEditionRole(deps.db, editionId, actor, 'staff')).role,
    page: await listRows(deps.db, editionId, filter, window),
  };
  const items = await withMoney(deps, page.items, isEventRole(role, 'admin'));
  return { ...page, items: items.map(serialize) };
}

// ---------- the summary ----------

/**
 * Owners and admins only. Staff are told why (403 `sales_restricted`); anyone else gets the guard's
 * answer (404 for a draft event, else 403).
 */
async function requireSalesRole(db: Database, editionId: string, actor: Identity) {
  const access = await requireEditionRole(db, editionId, actor, 'staff');
  if (!isEventRole(access.role, 'admin')) {
    throw new AppError(
      'FORBIDDEN',
      'Sales and money are shown to the event’s owners and admins only; staff see the registrations ' +
        '(GET /editions/{edition_id}/registrations) without money',
      { reason: 'sales_restricted' },
    );
  }
  return access;
}

function countsOf(rows: TicketTypeCounts[]): SalesCounts {
  const sum = (pick: (row: TicketTypeCounts) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const sold = sum((row) => row.confirmed);
  const soldPaid = sum((row) => row.confirmed_paid);
  return {
    sold,
    sold_paid: soldPaid,
    sold_free: sold - soldPaid,
    held: sum((row) => row.held),
    cancelled: sum((row) => row.cancelled),
    expired: sum((row) => row.expired),
    refunded: sum((row) => row.refunded),
  };
}

/** The money of some checkouts' sums, one entry per currency (alphabetical). */
function moneyOf(sales: CheckoutSales[]): SalesMoney[] {
  const byCurrency = new Map<string, SalesMoney>();
  for (const sale of sales) {
    const entry = byCurrency.get(sale.currency) ?? {
      currency: sale.currency,
      payments: 0,
      revenue_cents: 0,
      refunds_cents: 0,
      fees_cents: 0,
      net_cents: 0,
    };
    entry.payments += sale.payments;
    entry.revenue_cents += sale.revenueCents;
    entry.refunds_cents += sale.refundedCents;
    entry.fees_cents += sale.feeCents;
    entry.net_cents = entry.revenue_cents - entry.refunds_cents - entry.fees_cents;
    byCurrency.set(sale.currency, entry);
  }
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * Owners and admins: the edition's registrations counted by state and its checkouts' money, in
 * total and per ticket type. Two statements, one per module, run together: the registrations
 * grouped by ticket type (events), the paid checkouts' intents summed by ticket type and currency
 * (payments, through the port). Each caller is authorized alone; callers of one edition at once
 * share computations (`Coalescer`: each answer is still read after its caller arrived), so a
 * console open in many tabs, or polled, costs the database one computation at a time.
 */
export async function salesSummary(
  deps: SalesDeps,
  runs: SummaryRuns,
  editionId: string,
  actor: Identity,
): Promise<SalesSummary> {
  await requireSalesRole(deps.db, editionId, actor);
  const summary = await runs.run(editionId, () => computeSummary(deps, editionId));
  return { edition_id: editionId, ...summary };
}

async function computeSummary(deps: SalesDeps, editionId: string): Promise<Omit<SalesSummary, 'edition_id'>> {
  const [counts, sales] = await Promise.all([
    countRegistrationsByTicketType(deps.db, editionId),
    deps.payments.salesOfEdition(deps.db, editionId),
  ]);
  return {
    counts: countsOf(counts),
    money: moneyOf(sales),
    ticket_types: counts.map((row) => ({
      ticket_type_id: row.ticket_type_id,
      name: row.name,
      price_cents: row.price_cents,
      currency: row.currency,
      counts: countsOf([row]),
      money: moneyOf(sales.filter((sale) => sale.ticketTypeId === row.ticket_type_id)),
    })),
    computed_at: new Date().toISOString(),
  };
}

// ---------- the CSV export ----------

/** Rows read per statement: a batch's memory stays small whatever the edition's size. */
const EXPORT_BATCH = 500;

const COLUMNS = [
  'registration_id',
  'created_at',
  'status',
  'status_reason',
  'email',
  'name',
  'ticket_type_id',
  'ticket_name',
  'intent_id',
] as const;
const MONEY_COLUMNS = ['amount_cents', 'refunded_cents', 'currency', 'payment_status'] as const;

type ExportRow = RegistrationListRow & RowMoney;

function exportLine(row: ExportRow, showsMoney: boolean): string {
  return csvLine([
    row.id,
    row.created_at.toISOString(),
    row.status,
    row.status_reason,
    row.email,
    row.name,
    row.ticket_type_id,
    row.ticket_name,
    row.intent_id,
    ...(showsMoney ? [row.amount_cents, row.refunded_cents, row.currency, row.payment_status] : []),
    row.cancelled_at?.toISOString() ?? null,
  ]);
}

/**
 * Staff and above (owners and admins with the money columns): every registration matching the
 * filters as CSV, newest first, read and written in batches (keyset paging), so an edition of any
 * size is streamed in bounded memory. The guard runs before anything is sent: a refusal is still
 * the error envelope.
 */
export async function exportRegistrations(
  deps: SalesDeps,
  editionId: string,
  actor: Identity,
  filter: RegistrationFilter,
): Promise<{ filename: string; lines: AsyncIterable<string> }> {
  const { role, edition } = await requireEditionRole(deps.db, editionId, actor, 'staff');
  const showsMoney = isEventRole(role, 'admin');
  async function* lines(): AsyncGenerator<string> {
    yield csvLine([...COLUMNS, ...(showsMoney ? MONEY_COLUMNS : []), 'cancelled_at']);
    let after: RegistrationListRow | undefined;
    for (;;) {
      const batch = await listRegistrationsAfter(deps.db, editionId, filter, after, EXPORT_BATCH);
      if (batch.length === 0) return;
      const rows = await withMoney(deps, batch, showsMoney);
      yield rows.map((row) => exportLine(row, showsMoney)).join('');
      if (batch.length < EXPORT_BATCH) return;
      after = batch[batch.length - 1];
    }
  }
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `registrations-${edition.slug}-${day}.csv`, lines: lines() };
}
