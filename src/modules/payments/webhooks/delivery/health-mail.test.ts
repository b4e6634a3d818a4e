/**
 * The owner's mail about an endpoint's health (docs/reference/webhooks.md, "Health mails"), read back
 * from a real SMTP server on loopback, with a real subscriber: a failing endpoint trips the breaker and
 * one mail arrives, naming it, its last errors and the console's link to its deliveries; a second trip
 * the same day sends none (and a day later one again); a 410 disables it and mails, in the language of
 * the request that created it; a delivery out of retries mails; an owner with no known e-mail gets
 * none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { createTestApp } from '../../../../../test/harness.ts';
import { type ParsedMail, type SmtpSink, startSmtpSink } from '../../../../../test/smtp-sink.ts';
import {
  type Answer,
  eventually,
  type Received,
  type Subscriber,
  startSubscriber,
} from '../../../../../test/subscriber.ts';
import { queryRows } from '../../../../kernel/db/raw.ts';
import { type PaymentsTeam, paymentsFixtures } from '../../payments.fixtures.ts';
import { webhookEndpoints } from '../endpoints/endpoints.table.ts';
import { webhookDeliveries } from './delivery.table.ts';
import { disableGoneEndpoints, recordAttempts } from './delivery-queue.repository.ts';

/** Two attempts per delivery, and three failures in a row pause an endpoint for 300 ms. */
const ENV = {
  WEBHOOK_RETRY_SCHEDULE: '0,0.05',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_BREAKER_FAILURES: '3',
  WEBHOOK_BREAKER_PAUSE_MS: '300',
  JOBS_POLL_MS: '50',
};

describe('webhook endpoint health mails', () => {
  let sink: SmtpSink;
  let subscriber: Subscriber;
  let team: PaymentsTeam;
  const answers = new Map<string, (request: Received) => Answer>();
  const fixtures = paymentsFixtures(() => team);

  before(async () => {
    sink = await startSmtpSink();
    subscriber = await startSubscriber();
    subscriber.respond = (request) => answers.get(request.path)?.(request) ?? {};
    const t = await createTestApp({ ...ENV, MAIL_URL: sink.url });
    team = { t, owner: await t.actor('owner'), outsider: await t.actor('outsider') };
  });
  after(async () => {
    await team?.t.close();
    await subscriber?.close();
    await sink?.close();
  });

  const setUp = async (label: string, answer: (request: Received) => Answer, language = 'en') => {
    answers.set(`/${label}`, answer);
    const { wallet, seller } = await fixtures.walletWithSeller(team.owner);
    const endpoint = await fixtures.createEndpoint(
      team.owner,
      wallet.id,
      { name: `Hook ${label}`, url: `${subscriber.url}/${label}` },
      { 'accept-language': language },
    );
    const events = (n: number) =>
      Promise.all(Array.from({ length: n }, () => fixtures.createIntent(team.owner, wallet.id, seller.id)));
    return { wallet, endpoint, events };
  };
  /** The outbox's health mails about the endpoint (the mail module's table, read as SQL). */
  const mailsAbout = (endpointId: string) =>
    queryRows<{ id: string; recipient: string; language: string; reason: string }>(
      team.t.db,
      sql`select id, recipient, language, data->>'reason' as reason from emails
          where kind = 'webhook_endpoint_health' and data->>'endpoint_id' = ${endpointId}`,
    );
  const endpointRow = async (id: string) => {
    const [row] = await team.t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row!;
  };
  /** The sent mail about `name`, waiting for it. */
  const sentAbout = (name: string) =>
    eventually(
      async () => sink.mails.find((mail) => (mail.subject ?? '').includes(name)),
      `a mail about ${name}`,
      20_000,
    );
  const sentCount = (name: string) => sink.mails.filter((mail) => (mail.subject ?? '').includes(name)).length;
  const expectLayout = (mail: ParsedMail) => {
    const html = mail.html || '';
    // Accessible, self-contained: a language, a title, presentation tables, no external image.
    assert.match(html, /<html lang="[a-zA-Z-]+"/);
    assert.match(html, /<title>[^<]+<\/title>/);
    assert.match(html, /role="presentation"/);
    assert.doesNotMatch(html, /<img[^>]+src="https?:/);
    assert.ok((mail.text ?? '').length > 100, 'a plain-text part');
  };

  it('mails the owner once when the breaker first opens, and not again the same day', async () => {
    let isDown = true;
    const { wallet, endpoint, events } = await setUp('tripping', () =>
      isDown ? { status: 503, body: 'maintenance window' } : {},
    );
    await events(3);
    const mail = await sentAbout('Hook tripping');
    expectLayout(mail);
    assert.match(mail.subject ?? '', /^Your webhook endpoint is paused: Hook tripping$/);
    assert.equal([mail.to].flat()[0]?.text, team.owner.email);
    const text = mail.text ?? '';
    assert.match(text, /deliveries to it wait until .+ UTC/);
    assert.ok(text.includes(`${subscriber.url}/tripping`), 'the URL');
    assert.match(text, /Last errors \(1\).*HTTP 503 maintenance window/);
    const link = `${team.t.baseUrl}/console/wallets/${wallet.id}/webhooks#deliveries-${endpoint.id}`;
    assert.ok((mail.html || '').includes(`href="${link}"`), `a link to ${link}`);
    const first = await endpointRow(endpoint.id);
    assert.equal(first.health_mail_reason, 'paused');
    assert.ok(first.health_mailed_at !== null);

    // It recovers (the probe after the pause succeeds: the breaker closes), then fails again. The
    // three deliveries may have used up their retries on probes while the mail was on its way (a
    // second, when the mail threads start), leaving nothing to probe: a new event's delivery does.
    isDown = false;
    await events(1);
    await eventually(async () => {
      const row = await endpointRow(endpoint.id);
      return row.breaker_trips === 0 && row.paused_until === null ? true : undefined;
    }, 'the breaker closed');
    isDown = true;
    await events(3);
    await eventually(async () => {
      const row = await endpointRow(endpoint.id);
      return row.breaker_trips === 1 && row.paused_until !== null ? true : undefined;
    }, 'the breaker open again');
    // The mail would have been queued by the statement that opened it: there is still one.
    assert.equal((await mailsAbout(endpoint.id)).length, 1);
    assert.deepEqual((await endpointRow(endpoint.id)).health_mailed_at, first.health_mailed_at);

    // A day later, the next first trip mails again.
    await team.t.db
      .update(webhookEndpoints)
      .set({ health_mailed_at: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    isDown = false;
    await eventually(async () => {
      const row = await endpointRow(endpoint.id);
      return row.breaker_trips === 0 && row.paused_until === null ? true : undefined;
    }, 'the breaker closed again');
    isDown = true;
    await events(3);
    await eventually(
      async () => ((await mailsAbout(endpoint.id)).length === 2 ? true : undefined),
      'a second mail',
    );
    await eventually(
      async () => (sentCount('Hook tripping') === 2 ? true : undefined),
      'the second mail sent',
    );
  });

  it('disables an endpoint that answers 410 and mails its owner, in the language of its creation', async () => {
    const { endpoint, events } = await setUp('gone', () => ({ status: 410, body: 'no such hook' }), 'pt-BR');
    await events(1);
    const mail = await sentAbout('Hook gone');
    expectLayout(mail);
    assert.match(mail.html || '', /<html lang="pt-BR"/);
    assert.match(mail.subject ?? '', /^Seu endpoint de webhook foi desativado: Hook gone$/);
    assert.match(mail.text ?? '', /410 Gone/);
    assert.match(mail.text ?? '', /HTTP 410 no such hook/);
    const row = await endpointRow(endpoint.id);
    assert.deepEqual([row.enabled, row.disabled_reason, row.health_mail_reason], [false, 'gone', 'gone']);
    assert.equal((await mailsAbout(endpoint.id)).length, 1);
  });

  it('mails when a delivery uses up its retry schedule', async () => {
    const { endpoint, events } = await setUp('exhausted', () => ({ status: 500, body: 'boom' }), 'es');
    await events(1);
    const mail = await sentAbout('Hook exhausted');
    expectLayout(mail);
    assert.match(mail.subject ?? '', /^Una entrega de webhook agotó sus reintentos: Hook exhausted$/);
    assert.match(mail.text ?? '', /HTTP 500 boom/);
    const [delivery] = await team.t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpoint_id, endpoint.id));
    assert.deepEqual([delivery?.status, delivery?.attempts], ['failed', 2]);
    // Two failures in a row: below the breaker's three, so this is not a pause.
    const row = await endpointRow(endpoint.id);
    assert.deepEqual(
      [row.enabled, row.breaker_trips, row.health_mail_reason],
      [true, 0, 'retries_exhausted'],
    );
  });

  it('queues no mail, and spends the day, when the owner has no known e-mail', async () => {
    // Answered slowly, so the owner's address is gone before the delivery runs out of retries.
    const { endpoint, events } = await setUp('mute', () => ({ status: 500, delayMs: 300 }));
    await events(1);
    await team.t.db.execute(sql`update actors set email = '' where user_id = ${team.owner.id}`);
    try {
      await eventually(async () => {
        const row = await endpointRow(endpoint.id);
        return row.health_mail_reason === 'retries_exhausted' ? row : undefined;
      }, 'the cause recorded');
      assert.equal((await mailsAbout(endpoint.id)).length, 0);
    } finally {
      await team.t.db.execute(
        sql`update actors set email = ${team.owner.email} where user_id = ${team.owner.id}`,
      );
    }
  });

  it('queues one mail when the 410 and another attempt of the endpoint are recorded in the same millisecond', async () => {
    // The worker disables a gone endpoint and records the batch's attempts in two statements. In
    // one transaction their now() is the same instant: the two within one millisecond, for sure.
    const outcome = (status: 'failed', responseStatus: number) => ({
      deliveryId: crypto.randomUUID(),
      claimId: crypto.randomUUID(),
      succeeded: false,
      startedAt: new Date(),
      durationMs: 5,
      responseStatus,
      responseBody: 'x',
      error: null,
      status,
      retryInSeconds: null,
    });
    const breaker = { failures: 3, pauseMs: 300 };
    // The 410 first, then a failure beside it: the record must not take the 410's mail for its own.
    const gone = (await setUp('same-ms-gone', () => ({}))).endpoint;
    await team.t.db.transaction(async (tx) => {
      await disableGoneEndpoints(tx, [gone.id]);
      await recordAttempts(tx, [{ ...outcome('failed', 410), endpointId: gone.id }], breaker);
    });
    assert.deepEqual(
      (await mailsAbout(gone.id)).map((mail) => mail.reason),
      ['gone'],
    );
    // A delivery out of retries first, then the 410: the disabling must not take that mail for its own.
    const spent = (await setUp('same-ms-spent', () => ({}))).endpoint;
    await team.t.db.transaction(async (tx) => {
      await recordAttempts(tx, [{ ...outcome('failed', 500), endpointId: spent.id }], breaker);
      await disableGoneEndpoints(tx, [spent.id]);
    });
    assert.deepEqual(
      (await mailsAbout(spent.id)).map((mail) => mail.reason),
      ['retries_exhausted'],
    );
  });

  it('queues nothing for an endpoint that succeeds', async () => {
    const { endpoint, events } = await setUp('healthy', () => ({}));
    await events(3);
    await eventually(async () => {
      const rows = await queryRows<{ n: number }>(
        team.t.db,
        sql`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id}
              and status = 'delivered'`,
      );
      return rows[0]?.n === 3 ? true : undefined;
    }, 'three delivered');
    assert.equal((await mailsAbout(endpoint.id)).length, 0);
    assert.equal((await endpointRow(endpoint.id)).health_mailed_at, null);
  });
});
