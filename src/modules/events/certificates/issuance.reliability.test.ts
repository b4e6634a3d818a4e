/**
 * Certificate issuance survives a crash (docs/reference/attendance.md), with real processes on the PostgreSQL
 * server (the embedded database belongs to one process, so this needs TEST_DATABASE_URL; CI runs it in its
 * PostgreSQL pass). 5,000 people were checked in; an issuance run starts and the service is SIGKILLed
 * mid-run. A new process takes the job over when its lease (shortened to 3 s here by JOBS_LEASE_MS) runs out
 * and finishes it: every person holds exactly one certificate, the run's counters match what was issued, and
 * no status-list bit is shared.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../../../../test/database.ts';
import { signToken } from '../../../../test/harness.ts';
import { childEnv, freePort, killAllChildren, startService } from '../../../../test/processes.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import { queryRows } from '../../../kernel/db/raw.ts';

const PEOPLE = 5000;
const skip = TEST_DATABASE_URL ? false : 'needs a PostgreSQL server: set TEST_DATABASE_URL';

describe('certificate issuance across a SIGKILL (PostgreSQL, real processes)', { skip }, () => {
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await killAllChildren();
    await database?.close();
  });

  it('resumes the killed run and issues every certificate exactly once', async () => {
    const port = await freePort();
    const env = await childEnv(database.url!, {
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      JOBS_POLL_MS: '100',
      JOBS_LEASE_MS: '3000',
    });
    let service = await startService(env);
    const owner = await signToken({ id: uuidv7(), email: 'owner@example.com' });
    const api = async <T = Record<string, string>>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${service.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
        body: body === undefined ? null : JSON.stringify(body),
      });
      const json = (await response.json()) as { data: T };
      assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
      return json.data;
    };

    const event = await api('POST', '/events', { name: 'Crash course', slug: `crash-${Date.now()}` });
    await api('POST', `/events/${event.id}/publish`);
    // Under way (it started an hour ago): certificates are issued only once an edition has started.
    const edition = await api('POST', `/events/${event.id}/editions`, {
      name: 'Crash course',
      slug: 'crash-course',
      starts_at: new Date(Date.now() - 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 32 * 3_600_000).toISOString(),
    });
    await api('POST', `/events/${event.id}/editions/${edition.id}/publish`);
    const ticket = await api('POST', `/editions/${edition.id}/ticket-types`, {
      name: 'General',
      price_cents: 0,
      access_level: 0,
    });
    await api('POST', `/editions/${edition.id}/certifications/templates`, {
      kind: 'edition_attendance',
      name: 'Attendance',
    });

    // 5,000 people registered, badged and checked in at the door, written straight to the
    // database: the API paths are the other tests' business, this one is about the job.
    const db = database.handle.db;
    await db.execute(sql`
      with people as (
        select gen_random_uuid() as user_id, g from generate_series(1, ${PEOPLE}) g
      ), actors_in as (
        insert into actors (user_id, email, name)
        select user_id, 'person' || g || '@example.com', 'Person ' || g from people returning user_id
      ), registered as (
        insert into registrations (id, edition_id, ticket_type_id, user_id, status, created_by)
        select gen_random_uuid(), ${edition.id}, ${ticket.id}, user_id, 'confirmed', user_id from actors_in
        returning id, user_id
      ), badged as (
        insert into badge_emissions (id, edition_id, user_id, origin, registration_id)
        select gen_random_uuid(), ${edition.id}, user_id, 'participant', id from registered
        returning id, user_id
      )
      insert into check_ins (id, edition_id, emission_id, user_id, checked_in_at, scanned_by)
      select gen_random_uuid(), ${edition.id}, id, user_id, now(), user_id from badged`);

    const { job_id: jobId } = await api<{ job_id: string }>(
      'POST',
      `/editions/${edition.id}/certificates/issue`,
    );
    // Kill the service as soon as the run has issued some, but not all, certificates.
    for (;;) {
      const job = await api<{ status: string; done: number; total: number }>('GET', `/jobs/${jobId}`);
      assert.notEqual(job.status, 'completed', 'the run finished before it could be interrupted');
      if (job.status === 'running' && job.done > 0) break;
      await sleep(10);
    }
    await service.kill('SIGKILL');
    const [cut] = await queryRows<{ issued: number }>(
      db,
      sql`select count(*)::int as issued from certificates where edition_id = ${edition.id}`,
    );
    assert.ok(cut!.issued > 0 && cut!.issued < PEOPLE, `killed with ${cut!.issued} issued`);

    service = await startService(env);
    let job: { status: string; total: number; done: number; issued: number; skipped: number; errors: number };
    const deadline = Date.now() + 60_000;
    do {
      await sleep(200);
      job = await api('GET', `/jobs/${jobId}`);
      assert.ok(Date.now() < deadline, `still ${job.status} ${job.done}/${job.total} after a minute`);
    } while (job.status !== 'completed');

    assert.deepEqual(
      { total: job.total, done: job.done, issued: job.issued, skipped: job.skipped },
      { total: PEOPLE, done: PEOPLE, issued: PEOPLE, skipped: 0 },
    );
    const [counts] = await queryRows<{ certificates: number; people: number; bits: number; codes: number }>(
      db,
      sql`select count(*)::int as certificates, count(distinct user_id)::int as people,
                 count(distinct (status_list_id, status_list_index))::int as bits,
                 count(distinct verification_code)::int as codes
            from certificates where edition_id = ${edition.id}`,
    );
    assert.deepEqual(counts, { certificates: PEOPLE, people: PEOPLE, bits: PEOPLE, codes: PEOPLE });
    await service.kill('SIGTERM');
  });
});
