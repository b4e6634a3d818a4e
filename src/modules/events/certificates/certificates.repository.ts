/**
 * SQL of certificates: who qualifies (docs/reference/attendance.md), issuing a batch, status-list bits, the
 * reads of the routes, and revocation.
 */
import { and, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../kernel/db/client.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { likeContaining } from '../../../kernel/db/like.ts';
import { countAll, pageOf, type Window } from '../../../kernel/db/paging.ts';
import { queryRows } from '../../../kernel/db/raw.ts';
import { certificationTemplates } from '../certification-templates/index.ts';
import { editions } from '../editions/index.ts';
import { events } from '../events/index.ts';
import {
  type CertificateIssuanceRow,
  type CertificateRow,
  certificateIssuances,
  certificates,
  credentialStatusLists,
} from './certificates.table.ts';

/**
 * Every (template, person) that qualifies, as a SELECT of `template_id, user_id`:
 * - `edition_attendance`: a check-in at the edition or at any of its programs;
 * - `program_attendance`: a check-in at every live program linked to the template (a template
 *   with no live link qualifies nobody).
 * Only check-ins of badges still active count: a cancelled or refunded registration's badge is
 * revoked, and so is what it would have earned. `templateIds` null means every live template.
 */
function qualified(editionId: string, templateIds: string[] | null): SQL {
  const ids = templateIds === null ? null : JSON.stringify(templateIds);
  return sql`
    with tpl as (
      select t.id, t.kind from certification_templates t
       where t.edition_id = ${editionId} and t.deleted_at is null
         and (${ids}::jsonb is null or t.id in (select jsonb_array_elements_text(${ids}::jsonb)::uuid))
    ), attended as (
      select distinct c.user_id, c.program_id from check_ins c
        join badge_emissions b on b.id = c.emission_id and b.status = 'active'
       where c.edition_id = ${editionId}
    ), links as (
      select l.template_id, l.program_id from certification_template_programs l
        join tpl on tpl.id = l.template_id and tpl.kind = 'program_attendance'
        join programs p on p.id = l.program_id and p.deleted_at is null
    ), needed as (
      select template_id, count(*) as programs from links group by template_id
    )
    select tpl.id as template_id, a.user_id
      from tpl cross join (select distinct user_id from attended) a
     where tpl.kind = 'edition_attendance'
    union
    select l.template_id, a.user_id
      from links l join attended a on a.program_id = l.program_id
      join needed n on n.template_id = l.template_id
     group by l.template_id, a.user_id, n.programs
    having count(distinct a.program_id) = n.programs`;
}

/** How many (template, person) pairs qualify now, and how many of them already hold a certificate. */
export async function countQualified(
  db: Executor,
  editionId: string,
  templateIds: string[] | null,
): Promise<{ total: number; certified: number }> {
  const [row] = await queryRows<{ total: number; certified: number }>(
    db,
    sql`select count(*)::int as total,
               count(*) filter (where exists (
                 select 1 from certificates x where x.template_id = q.template_id and x.user_id = q.user_id
               ))::int as certified
          from (${qualified(editionId, templateIds)}) q`,
  );
  return row ?? { total: 0, certified: 0 };
}

export interface PendingCertificate {
  template_id: string;
  user_id: string;
  holder_name: string;
  holder_email: string;
}

/** The next `limit` qualifying pairs without a certificate, with the names to print on them. */
export function nextUncertified(
  db: Executor,
  editionId: string,
  templateIds: string[] | null,
  limit: number,
): Promise<PendingCertificate[]> {
  return queryRows<PendingCertificate>(
    db,
    sql`select q.template_id, q.user_id, coalesce(a.name, a.email) as holder_name, a.email as holder_email
          from (${qualified(editionId, templateIds)}) q
          join actors a on a.user_id = q.user_id
         where not exists (
           select 1 from certificates x where x.template_id = q.template_id and x.user_id = q.user_id)
         order by q.template_id, q.user_id
         limit ${limit}`,
  );
}

/**
 * Hands out `count` status-list bits (list id and counter), filling the current list before
 * opening a new one of `size` bits. The list row is locked while its counter moves, so concurrent
 * issuances never share a bit (the unique index on the certificates backs it up).
 */
export async function allocateStatusBits(
  tx: Executor,
  count: number,
  size: number,
): Promise<Array<{ listId: string; serial: number }>> {
  const bits: Array<{ listId: string; serial: number }> = [];
  while (bits.length < count) {
    let [list] = await queryRows<{ id: string; allocated: number; size: number }>(
      tx,
      sql`select id, allocated, size from credential_status_lists
           where allocated < size order by created_at, id limit 1 for update`,
    );
    if (list === undefined) {
      list = { id: uuidv7(), allocated: 0, size };
      await tx.insert(credentialStatusLists).values({ id: list.id, size, allocated: 0 });
    }
    const take = Math.min(count - bits.length, list.size - list.allocated);
    await tx
      .update(credentialStatusLists)
      .set({ allocated: list.allocated + take })
      .where(eq(credentialStatusLists.id, list.id));
    for (let offset = 0; offset < take; offset += 1) {
      bits.push({ listId: list.id, serial: list.allocated + offset });
    }
  }
  return bits;
}

export type NewCertificate = typeof certificates.$inferInsert;

/** Inserts certificates; a pair that already holds one is left alone. Answers how many went in. */
/** Inserts what no concurrent run inserted first; answers the rows it inserted. */
export async function insertCertificates(
  tx: Executor,
  rows: NewCertificate[],
): Promise<Array<{ id: string; holder_email: string }>> {
  if (rows.length === 0) return [];
  return tx
    .insert(certificates)
    .values(rows)
    .onConflictDoNothing({ target: [certificates.template_id, certificates.user_id] })
    .returning({ id: certificates.id, holder_email: certificates.holder_email });
}

// ---------- issuance runs ----------

export async function insertIssuance(
  db: Executor,
  values: typeof certificateIssuances.$inferInsert,
): Promise<CertificateIssuanceRow> {
  const [row] = await db.insert(certificateIssuances).values(values).returning();
  return row!;
}

/**
 * When the edition starts (issuance waits for it) and its event (whose mail log lists the
 * certificates' mails); undefined for an unknown edition.
 */
export async function findRunEdition(
  db: Executor,
  editionId: string,
): Promise<{ starts_at: Date; event_id: string } | undefined> {
  const rows = await db
    .select({ starts_at: editions.starts_at, event_id: editions.event_id })
    .from(editions)
    .where(eq(editions.id, editionId))
    .limit(1);
  return rows[0];
}

export async function findIssuance(db: Executor, id: string): Promise<CertificateIssuanceRow | undefined> {
  const rows = await db.select().from(certificateIssuances).where(eq(certificateIssuances.id, id)).limit(1);
  return rows[0];
}

export async function updateIssuance(
  db: Executor,
  id: string,
  patch: {
    [K in keyof Omit<CertificateIssuanceRow, 'id' | 'edition_id' | 'created_at'>]?:
      | CertificateIssuanceRow[K]
      | SQL;
  },
): Promise<void> {
  await db
    .update(certificateIssuances)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(certificateIssuances.id, id));
}

/** A slice that threw: one more error, and its message (the job is retried). */
export async function recordIssuanceError(db: Executor, id: string, message: string): Promise<void> {
  await updateIssuance(db, id, { errors: sql`${sql.identifier('errors')} + 1`, last_error: message });
}

/** A run that cannot go on (`last_error` says why). */
export async function failIssuance(db: Executor, id: string, lastError: string): Promise<void> {
  await updateIssuance(db, id, { status: 'failed', finished_at: sql`now()`, last_error: lastError });
}

/** Locks a run's row for the rest of the caller's transaction (its batches take turns). */
export async function lockIssuance(tx: Executor, id: string): Promise<void> {
  await tx.execute(sql`select 1 from certificate_issuances where id = ${id} for update`);
}

/** Nobody is left to certify: the total is at least what was done. */
export async function completeIssuance(db: Executor, id: string): Promise<void> {
  await updateIssuance(db, id, {
    status: 'completed',
    finished_at: sql`now()`,
    total: sql`greatest(${sql.identifier('total')}, ${sql.identifier('done')})`,
  });
}

/**
 * A batch of `size` people was certified, `inserted` of them new (the others already were): the
 * counters move in the batch's transaction, by increments, so they add up across processes.
 */
export async function countIssuedBatch(
  tx: Executor,
  id: string,
  size: number,
  inserted: number,
): Promise<void> {
  const done = sql`${sql.identifier('done')} + ${size}`;
  await updateIssuance(tx, id, {
    done,
    issued: sql`${sql.identifier('issued')} + ${inserted}`,
    skipped: sql`${sql.identifier('skipped')} + ${size - inserted}`,
    total: sql`greatest(${sql.identifier('total')}, ${done})`,
  });
}

// ---------- reads ----------

/** A certificate with the names its answers and documents show. */
export interface CertificateView extends CertificateRow {
  template_name: string;
  template_description: string | null;
  template_kind: 'edition_attendance' | 'program_attendance';
  template_design: Record<string, unknown>;
  template_deleted: boolean;
  edition_name: string;
  edition_starts_at: Date;
  edition_ends_at: Date;
  edition_location: string | null;
  event_id: string;
  event_name: string;
}

function selectCertificates(db: Executor) {
  return db
    .select({
      id: certificates.id,
      template_id: certificates.template_id,
      edition_id: certificates.edition_id,
      user_id: certificates.user_id,
      holder_name: certificates.holder_name,
      holder_email: certificates.holder_email,
      issued_at: certificates.issued_at,
      status: certificates.status,
      revoked_at: certificates.revoked_at,
      reason: certificates.reason,
      revoked_by: certificates.revoked_by,
      verification_code: certificates.verification_code,
      status_list_id: certificates.status_list_id,
      status_list_index: certificates.status_list_index,
      issuance_id: certificates.issuance_id,
      signature_ids: certificates.signature_ids,
      template_name: certificationTemplates.name,
      template_description: certificationTemplates.description,
      template_kind: certificationTemplates.kind,
      template_design: certificationTemplates.design_data,
      template_deleted: sql<boolean>`${certificationTemplates.deleted_at} is not null`,
      edition_name: editions.name,
      edition_starts_at: editions.starts_at,
      edition_ends_at: editions.ends_at,
      edition_location: editions.location_name,
      event_id: events.id,
      event_name: events.name,
    })
    .from(certificates)
    .innerJoin(certificationTemplates, eq(certificationTemplates.id, certificates.template_id))
    .innerJoin(editions, eq(editions.id, certificates.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id));
}

export async function findCertificate(db: Executor, id: string): Promise<CertificateView | undefined> {
  const rows = await selectCertificates(db).where(eq(certificates.id, id)).limit(1);
  return rows[0];
}

export async function findCertificateByCode(
  db: Executor,
  code: string,
): Promise<CertificateView | undefined> {
  const rows = await selectCertificates(db).where(eq(certificates.verification_code, code)).limit(1);
  return rows[0];
}

function listWhere(db: Executor, where: SQL | undefined, window: Window) {
  return pageOf<CertificateView>(
    window,
    selectCertificates(db)
      .where(where)
      .orderBy(desc(certificates.issued_at), desc(certificates.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ total: countAll }).from(certificates).where(where),
  );
}

export interface CertificateFilter {
  /** A part of the holder's name or e-mail, any case. */
  q?: string | undefined;
  status?: 'valid' | 'revoked' | undefined;
}

/** An edition's certificates, filtered: its index on the edition narrows them, the rest is read. */
export function listCertificatesOfEdition(
  db: Executor,
  editionId: string,
  window: Window,
  { q, status }: CertificateFilter = {},
) {
  const pattern = q === undefined ? undefined : likeContaining(q);
  return listWhere(
    db,
    and(
      eq(certificates.edition_id, editionId),
      status === undefined ? undefined : eq(certificates.status, status),
      pattern === undefined
        ? undefined
        : or(
            sql`lower(${certificates.holder_name}) like lower(${pattern})`,
            sql`lower(${certificates.holder_email}) like lower(${pattern})`,
          ),
    ),
    window,
  );
}

export const listCertificatesOfUser = (db: Executor, userId: string, window: Window) =>
  listWhere(db, eq(certificates.user_id, userId), window);

/** Revokes a valid certificate; undefined when it was revoked already (or meanwhile). */
export async function revokeCertificate(
  tx: Executor,
  id: string,
  by: string,
  reason: string,
): Promise<CertificateRow | undefined> {
  const [row] = await tx
    .update(certificates)
    .set({ status: 'revoked', revoked_at: sql`now()`, revoked_by: by, reason })
    .where(and(eq(certificates.id, id), eq(certificates.status, 'valid')))
    .returning();
  if (row !== undefined) {
    // A new version of the list: caches of its signed form (and ETags) move on.
    await tx
      .update(credentialStatusLists)
      .set({ updated_at: sql`now()` })
      .where(eq(credentialStatusLists.id, row.status_list_id));
  }
  return row;
}

/** A status list and the counters of its revoked certificates. */
export async function findStatusList(
  db: Executor,
  id: string,
): Promise<{ id: string; size: number; updated_at: Date; revoked: number[] } | undefined> {
  const [list] = await db
    .select()
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.id, id))
    .limit(1);
  if (list === undefined) return undefined;
  const revoked = await queryRows<{ status_list_index: number }>(
    db,
    sql`select status_list_index from certificates where status_list_id = ${id} and status = 'revoked'`,
  );
  return {
    id: list.id,
    size: list.size,
    updated_at: list.updated_at,
    revoked: revoked.map((row) => row.status_list_index),
  };
}

/** The programs a program_attendance template covers (live, in schedule order), for the documents. */
export async function linkedProgramNames(db: Executor, templateId: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select p.name from certification_template_programs l
          join programs p on p.id = l.program_id and p.deleted_at is null
         where l.template_id = ${templateId}
         order by p.starts_at nulls last, p.created_at, p.id`,
  );
  return rows.map((row) => row.name);
}

/** A live template with what its certificates draw of their edition and event (a preview's). */
export async function findTemplateForPreview(db: Executor, templateId: string) {
  const rows = await db
    .select({
      id: certificationTemplates.id,
      edition_id: certificationTemplates.edition_id,
      kind: certificationTemplates.kind,
      name: certificationTemplates.name,
      description: certificationTemplates.description,
      design_data: certificationTemplates.design_data,
      edition_name: editions.name,
      edition_starts_at: editions.starts_at,
      edition_ends_at: editions.ends_at,
      edition_location: editions.location_name,
      event_name: events.name,
    })
    .from(certificationTemplates)
    .innerJoin(editions, eq(editions.id, certificationTemplates.edition_id))
    .innerJoin(events, eq(events.id, editions.event_id))
    .where(and(eq(certificationTemplates.id, templateId), isNull(certificationTemplates.deleted_at)))
    .limit(1);
  return rows[0];
}
export type TemplateForPreview = NonNullable<Awaited<ReturnType<typeof findTemplateForPreview>>>;
