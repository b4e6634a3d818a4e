/**
 * The registrations' state machine (`registrations.transitions.ts`): nothing else in `src/` writes
 * a registration's status, and every declared transition has exactly its declared effects on the
 * seat counters, the participant badge, the refunds asked and the events announced. The HTTP
 * tests beside this file (registrations*, checkout*) check the same effects through the routes.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import type { RegistrationEventData, RegistrationEventType } from '../../../kernel/payments-port.ts';
import { participantBadges } from '../badges/index.ts';
import type { Edition } from '../editions/editions.schemas.ts';
import { useTeam } from '../events.fixtures.ts';
import { emissionOf, ticketFixtures } from '../tickets/tickets.fixtures.ts';
import { findRegistration } from './registrations.repository.ts';
import type { RegistrationRow } from './registrations.table.ts';
import {
  moveRegistration,
  openRegistration,
  REGISTRATION_TRANSITIONS,
  type TransitionName,
  type TransitionPorts,
} from './registrations.transitions.ts';

// ---------- the one writer ----------

const SRC = fileURLToPath(new URL('../../../', import.meta.url));
const TRANSITIONS = 'modules/events/registrations/registrations.transitions.ts';
const REPOSITORY = 'modules/events/registrations/registrations.repository.ts';
/** The repository's functions that write `status` (or its reason): for the transitions only. */
const STATUS_WRITERS = ['insertRegistration', 'updateStatus', 'setStatusReason'];

function sourcesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), readFileSync(path, 'utf8'));
  }
  return files;
}

/**
 * Who writes the registrations' status, by source file (paths relative to `src/`): every
 * violation of "only the transitions do", in words. Drizzle writes of the table outside its
 * repository, SQL text that updates or inserts into it, a repository function other than
 * `updateStatus` and `insertRegistration` that sets `status`, and any file but the transitions
 * calling the repository's status writers.
 */
export function statusWriteViolations(sources: Map<string, string>): string[] {
  const violations: string[] = [];
  for (const [file, source] of sources) {
    if (file !== REPOSITORY && /\.(update|insert)\(\s*registrations\s*\)/.test(source)) {
      violations.push(`${file} writes the registrations table`);
    }
    if (/\b(update\s+registrations|insert\s+into\s+registrations)\b/i.test(source)) {
      violations.push(`${file} writes the registrations table in SQL text`);
    }
    const importsRepository = /from '[^']*registrations\.repository\.ts'/.test(source);
    if (file !== TRANSITIONS && file !== REPOSITORY && importsRepository) {
      for (const name of STATUS_WRITERS) {
        if (new RegExp(`\\b${name}\\b`).test(source)) violations.push(`${file} calls ${name}`);
      }
    }
    if (file === REPOSITORY) {
      for (const fn of source.split(/^export /m).slice(1)) {
        const name = /^(?:async\s+)?function\s+(\w+)/.exec(fn)?.[1] ?? '?';
        if (
          /\.update\(\s*registrations\s*\)[\s\S]*?\.set\(\{[^}]*\bstatus:/.test(fn) &&
          name !== 'updateStatus'
        ) {
          violations.push(`${file}: ${name} sets status`);
        }
        if (/\.insert\(\s*registrations\s*\)/.test(fn) && name !== 'insertRegistration') {
          violations.push(`${file}: ${name} inserts registrations`);
        }
      }
    }
  }
  return violations;
}

describe('the registration status has one writer', () => {
  it('is written only by registrations.transitions.ts', () => {
    assert.deepEqual(statusWriteViolations(sourcesOf(SRC)), []);
  });

  it('would catch a service, a repository function or raw SQL writing it (the check itself)', () => {
    const sources = sourcesOf(SRC);
    sources.set(
      'modules/events/badges/sneaky.service.ts',
      "import * as repo from '../registrations/registrations.repository.ts';\n" +
        "export const f = (tx) => repo.updateStatus(tx, 'id', 'confirmed', 'cancelled');\n",
    );
    sources.set(
      'modules/events/check-ins/sneaky.repository.ts',
      "export const g = (db) => db.update(registrations).set({ status: 'cancelled' });\n" +
        "export const h = (db) => db.execute(sql`UPDATE registrations SET status = 'expired'`);\n",
    );
    sources.set(
      REPOSITORY,
      `${sources.get(REPOSITORY)}\nexport async function cancelAll(db) {\n  await db.update(registrations).set({ status: 'cancelled' });\n}\n`,
    );
    assert.deepEqual(statusWriteViolations(sources).sort(), [
      'modules/events/badges/sneaky.service.ts calls updateStatus',
      'modules/events/check-ins/sneaky.repository.ts writes the registrations table',
      'modules/events/check-ins/sneaky.repository.ts writes the registrations table in SQL text',
      `${REPOSITORY}: cancelAll sets status`,
    ]);
  });
});

// ---------- every transition's effects ----------

describe('registration transitions and their effects', () => {
  const team = useTeam();
  const { t } = team;
  const fx = ticketFixtures(() => team);
  let edition: Edition;
  let ticketTypeId: string;
  let eventId: string;
  const covered = new Set<TransitionName>();

  /** The payments module as the transitions see it: what they announced and which refunds they asked. */
  const announced: { type: RegistrationEventType; data: RegistrationEventData }[] = [];
  const refunds: { intentId: string; reason: string }[] = [];
  const ports: TransitionPorts = {
    payments: {
      announce: async (_tx, type, data) => {
        announced.push({ type, data });
      },
      requestRefund: async (_tx, intentId, reason) => {
        refunds.push({ intentId, reason });
      },
    },
    // The real badges, as the module's index.ts wires them: the badge effects are checked on the rows.
    participantBadges,
  };

  before(async () => {
    const setup = await fx.setupEdition();
    edition = setup.edition;
    eventId = setup.event.id;
    ticketTypeId = (await fx.createTicketType(edition.id, { name: 'Two seats', max_quantity: 2 })).id;
  });

  async function counters() {
    const type = (await fx.ticketTypes(edition.id)).find((each) => each.id === ticketTypeId)!;
    return { confirmed: type.confirmed_count, held: type.held_count };
  }
  async function badgeOf(userId: string) {
    const badge = emissionOf(await fx.emissions(edition.id), userId, 'participant');
    return badge === undefined ? undefined : { status: badge.status, reason: badge.status_reason };
  }
  const read = async (id: string) => (await findRegistration(t.db, id))!;
  /** The mails queued so far about a registration, oldest first (the outbox, docs/mail.md). */
  const mailsOf = async (id: string) =>
    (
      await queryRows<{ kind: string }>(
        t.db,
        sql`select kind from emails where data->>'registration_id' = ${id} order by created_at, id`,
      )
    ).map((mail) => mail.kind);

  /** Runs one transition and answers what it changed. */
  async function run(
    name: TransitionName,
    registration: RegistrationRow | { userId: string; paid: boolean },
  ) {
    covered.add(name);
    const seatsBefore = await counters();
    const mailsBefore = 'userId' in registration ? 0 : (await mailsOf(registration.id)).length;
    announced.length = 0;
    refunds.length = 0;
    const row = await t.db.transaction(async (tx) => {
      if (!('userId' in registration)) return moveRegistration(tx, ports, registration, name as never);
      return openRegistration(tx, ports, name as never, {
        id: uuidv7(),
        edition_id: edition.id,
        ticket_type_id: ticketTypeId,
        user_id: registration.userId,
        created_by: registration.userId,
        intent_id: registration.paid ? uuidv7() : null,
      });
    });
    const seatsAfter = await counters();
    const id = row?.id ?? ('userId' in registration ? undefined : registration.id);
    return {
      row,
      mails: id === undefined ? [] : (await mailsOf(id)).slice(mailsBefore),
      seats: {
        confirmed: seatsAfter.confirmed - seatsBefore.confirmed,
        held: seatsAfter.held - seatsBefore.held,
      },
      announced: announced.map((each) => each.type),
      data: announced[0]?.data,
      refunds: [...refunds],
    };
  }
  const person = async () => (await t.actor('registrant')).id;

  it('register: a confirmed seat taken and the badge emitted, nothing announced; cancel: both undone', async () => {
    const userId = await person();
    const opened = await run('register', { userId, paid: false });
    assert.equal(opened.row?.status, 'confirmed');
    assert.deepEqual(opened.seats, { confirmed: 1, held: 0 });
    assert.deepEqual(await badgeOf(userId), { status: 'active', reason: null });
    assert.deepEqual([opened.announced, opened.refunds], [[], []]);
    assert.deepEqual(opened.mails, ['registration_confirmed']);

    const cancelled = await run('cancel', opened.row!);
    assert.deepEqual(cancelled.mails, []);
    assert.equal(cancelled.row?.status, 'cancelled');
    assert.equal(cancelled.row?.status_reason, null);
    assert.deepEqual(cancelled.seats, { confirmed: -1, held: 0 });
    assert.deepEqual(await badgeOf(userId), { status: 'revoked', reason: 'registration_cancelled' });
    assert.deepEqual([cancelled.announced, cancelled.refunds], [[], []]);
    // Conditional on its status: a second cancel of the same row as read changes nothing.
    assert.equal((await run('cancel', opened.row!)).row, undefined);
    assert.deepEqual(await counters(), { confirmed: 0, held: 0 });
  });

  it('startCheckout holds a seat; cancelPending gives it back; a payment after that is refunded', async () => {
    const userId = await person();
    const opened = await run('startCheckout', { userId, paid: true });
    assert.equal(opened.row?.status, 'pending_payment');
    assert.deepEqual(opened.seats, { confirmed: 0, held: 1 });
    assert.equal(await badgeOf(userId), undefined);

    const cancelled = await run('cancelPending', opened.row!);
    assert.equal(cancelled.row?.status, 'cancelled');
    assert.deepEqual(cancelled.seats, { confirmed: 0, held: -1 });
    assert.deepEqual([cancelled.announced, cancelled.refunds], [[], []]);

    const paid = await run('payAfterCancel', cancelled.row!);
    assert.equal((await read(opened.row!.id)).status, 'cancelled');
    assert.deepEqual(paid.seats, { confirmed: 0, held: 0 });
    assert.deepEqual(paid.refunds, [{ intentId: opened.row!.intent_id, reason: 'registration_cancelled' }]);
    assert.deepEqual(paid.announced, []);
    assert.deepEqual(paid.mails, []);

    // That refund went through: the registration stays cancelled, its holder is told.
    const refunded = await run('refundAfterCancel', await read(opened.row!.id));
    assert.equal(refunded.row?.status, 'cancelled');
    assert.deepEqual(refunded.seats, { confirmed: 0, held: 0 });
    assert.deepEqual([refunded.announced, refunded.refunds], [[], []]);
    assert.deepEqual(refunded.mails, ['refund_issued']);
  });

  it('pay: the held seat confirmed, the badge emitted, registration.confirmed announced; refund undoes it', async () => {
    const userId = await person();
    const { row } = await run('startCheckout', { userId, paid: true });
    const paid = await run('pay', row!);
    assert.equal(paid.row?.status, 'confirmed');
    assert.equal(paid.row?.checkout_url, null);
    assert.deepEqual(paid.seats, { confirmed: 1, held: -1 });
    assert.deepEqual(await badgeOf(userId), { status: 'active', reason: null });
    assert.deepEqual(paid.announced, ['registration.confirmed']);
    assert.deepEqual(paid.data, {
      registration_id: row!.id,
      edition_id: edition.id,
      event_id: eventId,
      ticket_type_id: ticketTypeId,
      user_id: userId,
      intent_id: row!.intent_id,
    });
    assert.deepEqual(Object.keys(paid.data!), [
      'registration_id',
      'edition_id',
      'event_id',
      'ticket_type_id',
      'user_id',
      'intent_id',
    ]);

    const refunded = await run('refund', paid.row!);
    assert.equal(refunded.row?.status, 'refunded');
    assert.equal(refunded.row?.status_reason, 'refunded');
    assert.ok(refunded.row?.cancelled_at instanceof Date);
    assert.deepEqual(refunded.seats, { confirmed: -1, held: 0 });
    assert.deepEqual(await badgeOf(userId), { status: 'revoked', reason: 'refunded' });
    assert.deepEqual(refunded.announced, ['registration.refunded']);
    assert.deepEqual(refunded.refunds, []);
  });

  it('refundCancellation: cancelled (reason refunded), seat freed, badge voided as a cancellation, registration.refunded', async () => {
    const userId = await person();
    const { row } = await run('startCheckout', { userId, paid: true });
    const paid = await run('pay', row!);
    const ended = await run('refundCancellation', paid.row!);
    assert.equal(ended.row?.status, 'cancelled');
    assert.equal(ended.row?.status_reason, 'refunded');
    assert.deepEqual(ended.seats, { confirmed: -1, held: 0 });
    assert.deepEqual(await badgeOf(userId), { status: 'revoked', reason: 'registration_cancelled' });
    assert.deepEqual(ended.announced, ['registration.refunded']);
    assert.deepEqual(ended.refunds, []);
  });

  it('expire, then a late payment: confirmed when a seat is free, else kept expired and refunded', async () => {
    const late = await person();
    const { row } = await run('startCheckout', { userId: late, paid: true });
    const expired = await run('expire', row!);
    assert.equal(expired.row?.status, 'expired');
    assert.equal(expired.row?.status_reason, 'hold_expired');
    assert.deepEqual(expired.seats, { confirmed: 0, held: -1 });
    assert.deepEqual(expired.announced, ['registration.expired']);
    assert.deepEqual(expired.refunds, []);

    const confirmed = await run('payAfterExpiry', expired.row!);
    assert.equal(confirmed.row?.status, 'confirmed');
    assert.deepEqual(confirmed.seats, { confirmed: 1, held: 0 });
    assert.deepEqual(await badgeOf(late), { status: 'active', reason: null });
    assert.deepEqual(confirmed.announced, ['registration.confirmed']);

    // A second payer's hold ends too, and the seat it gave back goes to a free registration.
    const unlucky = await person();
    const held = await run('startCheckout', { userId: unlucky, paid: true });
    const ended = await run('expire', held.row!);
    await run('register', { userId: await person(), paid: false });
    assert.deepEqual(await counters(), { confirmed: 2, held: 0 });

    const noSeat = await run('payAfterExpiry', ended.row!);
    assert.equal(noSeat.row, undefined);
    assert.deepEqual(noSeat.seats, { confirmed: 0, held: 0 });
    assert.deepEqual([noSeat.announced, noSeat.refunds], [[], []]);
    assert.equal((await read(ended.row!.id)).status, 'expired');

    const soldOut = await run('payAfterExpirySoldOut', ended.row!);
    const now = await read(ended.row!.id);
    assert.equal(now.status, 'expired');
    assert.equal(now.status_reason, 'sold_out_after_expiry');
    assert.deepEqual(soldOut.seats, { confirmed: 0, held: 0 });
    assert.deepEqual(soldOut.refunds, [{ intentId: ended.row!.intent_id, reason: 'sold_out_after_expiry' }]);
    assert.deepEqual(soldOut.announced, []);
    assert.equal(await badgeOf(unlucky), undefined);

    const refunded = await run('refundExpired', now);
    assert.equal(refunded.row?.status, 'refunded');
    assert.equal(refunded.row?.status_reason, 'sold_out_after_expiry');
    assert.deepEqual(refunded.seats, { confirmed: 0, held: 0 });
    assert.deepEqual(refunded.announced, ['registration.refunded']);
    assert.deepEqual(refunded.refunds, []);
  });

  it('covers every declared transition', () => {
    assert.deepEqual([...covered].sort(), Object.keys(REGISTRATION_TRANSITIONS).sort());
  });
});
