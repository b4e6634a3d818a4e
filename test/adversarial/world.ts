/**
 * The world the fuzz attacks, built through the API with one owner's token: one of every resource,
 * so that every path parameter of every operation names something real the owner may act on, and
 * every documented example body, with these ids put in, is a request that would succeed. The fuzz
 * then breaks exactly one thing in it: a refusal is owed to the defect, and a service that let the
 * defect through would write, which the table fingerprints catch.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/kernel/db/raw.ts';
import type {
  BadgeEmission,
  BadgePrintItem,
  BadgeTemplate,
} from '../../src/modules/events/badges/badges.schemas.ts';
import type { Certificate } from '../../src/modules/events/certificates/certificates.schemas.ts';
import type {
  CertificationTemplate,
  TemplateLink,
} from '../../src/modules/events/certification-templates/certification-templates.schemas.ts';
import type { Edition } from '../../src/modules/events/editions/editions.schemas.ts';
import type { Event } from '../../src/modules/events/events/events.schemas.ts';
import type { Member } from '../../src/modules/events/members/members.schemas.ts';
import type { Program } from '../../src/modules/events/programs/programs.schemas.ts';
import type { Registration } from '../../src/modules/events/registrations/registrations.schemas.ts';
import type {
  CreatedSignatureRequest,
  FulfilledSignature,
} from '../../src/modules/events/signatures/signatures.schemas.ts';
import type { TicketType } from '../../src/modules/events/tickets/tickets.schemas.ts';
import type { ConnectResult } from '../../src/modules/payments/connections/connections.schemas.ts';
import type { Intent } from '../../src/modules/payments/intents/intents.schemas.ts';
import type { Seller, Wallet } from '../../src/modules/payments/wallets/wallets.schemas.ts';
import type { WebhookDelivery } from '../../src/modules/payments/webhooks/delivery/deliveries.schemas.ts';
import type { WebhookEndpointWithSecret } from '../../src/modules/payments/webhooks/endpoints/endpoints.schemas.ts';
import type { PaymentEvent } from '../../src/modules/payments/webhooks/webhook-events/webhook-events.schemas.ts';
import type { ProjectMember } from '../../src/modules/projects/members/members.schemas.ts';
import type { Project } from '../../src/modules/projects/projects/projects.schemas.ts';
import type { ApiResponse, TestApp, TestUser } from '../harness.ts';
import { signNotification } from '../mercadopago-simulator.ts';
import type { Operation } from './openapi.ts';

export const WEBHOOK_SECRET = 'fuzz-webhook-secret';

export interface World {
  owner: TestUser;
  /** Member of the event and of the project (the target of the member-removal examples). */
  member: TestUser;
  /** An existing actor who is a member of nothing (the target of the member-addition examples). */
  guest: TestUser;
  ids: Record<string, string>;
  slugs: { event: string; edition: string };
  tokens: { signature: string; revoke: string };
  oauth: { state: string; code: string };
}

const isoAt = (hours: number) => new Date(Date.UTC(2030, 0, 1) + hours * 3_600_000).toISOString();
/**
 * `hours` after the start of the world's published edition, an hour before the world is built: the
 * edition is under way, so its check-ins are open and certificates may be issued (docs/features.md,
 * "Attendance and certificates").
 */
const LIVE_START = Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000;
const liveAt = (hours: number) => new Date(LIVE_START + hours * 3_600_000).toISOString();

/** Builds the world (the app's Mercado Pago is the local simulator). */
export async function buildWorld(t: TestApp): Promise<World> {
  const owner = await t.actor('fuzz-owner');
  const member = await t.actor('fuzz-member');
  const guest = await t.actor('fuzz-guest');
  const as = { token: owner.token };
  const ok = async <T>(promise: Promise<ApiResponse<T>>, what: string): Promise<T> => {
    const response = await promise;
    assert.ok(response.status < 300, `world: ${what}: ${response.status} ${response.text}`);
    return response.body.data;
  };
  const unique = randomBytes(3).toString('hex');

  // 1. Events: a published one (with a staff member) for everything, a draft one to publish.
  const event = await ok(
    t.post<Event>('/events', { ...as, body: { name: 'Fuzz event', slug: `fuzz-${unique}` } }),
    'event',
  );
  await ok(
    t.post<Member>(`/events/${event.id}/members`, { ...as, body: { email: member.email, role: 'staff' } }),
    'member',
  );
  await ok(t.post<Event>(`/events/${event.id}/publish`, as), 'publish event');
  const draftEvent = await ok(
    t.post<Event>('/events', { ...as, body: { name: 'Fuzz draft', slug: `fuzz-draft-${unique}` } }),
    'draft event',
  );

  // 2. Editions: the published one under way now, the draft in 2030 (the documented examples use
  //    2027, so they never overlap these, but for a run in those very days of 2027).
  const edition = await ok(
    t.post<Edition>(`/events/${event.id}/editions`, {
      ...as,
      body: { name: 'Fuzz edition', slug: 'fuzz-edition', starts_at: liveAt(0), ends_at: liveAt(72) },
    }),
    'edition',
  );
  await ok(t.post<Edition>(`/events/${event.id}/editions/${edition.id}/publish`, as), 'publish edition');
  const draftEdition = await ok(
    t.post<Edition>(`/events/${event.id}/editions`, {
      ...as,
      body: { name: 'Fuzz draft edition', slug: 'fuzz-draft', starts_at: isoAt(1000), ends_at: isoAt(1048) },
    }),
    'draft edition',
  );

  // 3. Schedule, certification template linked to the first program (the second stays unlinked).
  const program = await ok(
    t.post<Program>(`/editions/${edition.id}/programs`, {
      ...as,
      body: { kind: 'activity', name: 'Fuzz talk' },
    }),
    'program',
  );
  const freeProgram = await ok(
    t.post<Program>(`/editions/${edition.id}/programs`, {
      ...as,
      body: { kind: 'activity', name: 'Fuzz workshop' },
    }),
    'second program',
  );
  const certification = await ok(
    t.post<CertificationTemplate>(`/editions/${edition.id}/certifications/templates`, {
      ...as,
      body: { kind: 'program_attendance', name: 'Fuzz certificate' },
    }),
    'certification template',
  );
  await ok(
    t.post<TemplateLink>(`/certifications/templates/${certification.id}/link`, {
      ...as,
      body: { program_id: program.id },
    }),
    'link',
  );

  // 4. A free ticket type; the member registered by the owner (the owner's own registration stays
  //    free to make); the staff badge template (the edition default stays free to make).
  const ticketType = await ok(
    t.post<TicketType>(`/editions/${edition.id}/ticket-types`, {
      ...as,
      body: { name: 'Fuzz ticket', price_cents: 0, access_level: 1 },
    }),
    'ticket type',
  );
  const registration = await ok(
    t.post<Registration>(`/editions/${edition.id}/registrations`, {
      ...as,
      body: { ticket_type_id: ticketType.id, email: member.email },
    }),
    'registration',
  );
  const badge = await ok(
    t.post<BadgeTemplate>(`/editions/${edition.id}/badges`, {
      ...as,
      body: { name: 'Fuzz staff badge', design_data: { width: 90 }, origin: 'staff' },
    }),
    'badge template',
  );
  const emissions = await ok(
    t.get<BadgeEmission[]>(`/editions/${edition.id}/badges/emissions`, as),
    'emissions',
  );
  assert.ok(emissions.length > 0, 'world: the registration emitted a badge');

  // 4b. Attendance: the member's badge scanned at the linked program, and the certificate it earns
  //     (the template is linked to that program only), issued by a job the world waits for.
  const print = await ok(t.get<BadgePrintItem[]>(`/editions/${edition.id}/badges/print`, as), 'print data');
  const memberBadge = print.find((item) => item.user_id === member.id);
  assert.ok(memberBadge !== undefined, "world: the member's badge is printable");
  await ok(
    t.post(`/editions/${edition.id}/check-ins`, {
      ...as,
      body: { code: memberBadge.variables.action_url, program_id: program.id },
    }),
    'check-in',
  );
  const { job_id: job } = await ok(
    t.post<{ job_id: string }>(`/editions/${edition.id}/certificates/issue`, as),
    'issuance',
  );
  for (
    let tries = 0;
    (await ok(t.get<{ status: string }>(`/jobs/${job}`, as), 'job')).status !== 'completed';
  ) {
    assert.ok(++tries < 200, 'world: the issuance job completes');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const [certificate] = await ok(
    t.get<Certificate[]>(`/editions/${edition.id}/certificates`, as),
    'certificates',
  );
  assert.ok(certificate !== undefined, 'world: the member holds a certificate');
  const [statusList] = await queryRows<{ id: string }>(
    t.db,
    sql`select status_list_id as id from certificates where id = ${certificate.id}`,
  );

  // 5. Signatures: a pending request (its token opens the token routes) and a signed one.
  const signatory = (name: string) => ({ signatory_name: name, signatory_email: `${name}@example.com` });
  const pending = await ok(
    t.post<CreatedSignatureRequest>(`/editions/${edition.id}/signature-requests`, {
      ...as,
      body: signatory('pending'),
    }),
    'signature request',
  );
  const signed = await ok(
    t.post<CreatedSignatureRequest>(`/editions/${edition.id}/signature-requests`, {
      ...as,
      body: signatory('signed'),
    }),
    'second signature request',
  );
  const signature = await ok(
    t.post<FulfilledSignature>(`/signature-requests/fulfill?token=${encodeURIComponent(signed.token)}`, {
      body: { image_url: 'https://cdn.example.com/fuzz.png' },
    }),
    'signature',
  );

  // 6. A project with the member in it.
  const project = await ok(
    t.post<Project>('/projects', { ...as, body: { name: 'Fuzz project', slug: `fuzz-${unique}` } }),
    'project',
  );
  await ok(
    t.post<ProjectMember>(`/projects/${project.id}/members`, {
      ...as,
      body: { actor_email: member.email, role: 'member' },
    }),
    'project member',
  );

  // 7. Payments: wallet, test seller, a collector through the real OAuth flow (bound to the
  //    wallet), a webhook endpoint, then a pending intent whose event and delivery it receives.
  const wallet = await ok(
    t.post<Wallet>('/wallets', { ...as, body: { name: `Fuzz wallet ${unique}` } }),
    'wallet',
  );
  const seller = await ok(
    t.post<Seller>('/testmode/sellers', { ...as, body: { wallet_id: wallet.id, provider: 'mercadopago' } }),
    'seller',
  );
  const collectorConsent = await consent(t, owner, { flow: 'collector' });
  const callback = await t.get(`/providers/mercadopago/callback?${collectorConsent.search}`);
  assert.equal(callback.status, 302, `world: collector callback: ${callback.text}`);
  const collectorId = new URL(callback.headers.location as string).searchParams.get('credential_id');
  assert.ok(collectorId, 'world: the collector flow answers a credential id');
  await ok(
    t.post<Wallet>(`/wallets/${wallet.id}/collector`, { ...as, body: { collector_id: collectorId } }),
    'bind',
  );
  const endpoint = await ok(
    t.post<WebhookEndpointWithSecret>(`/wallets/${wallet.id}/webhooks/endpoints`, {
      ...as,
      body: { name: 'Fuzz endpoint', url: 'https://hooks.example.com/fuzz' },
    }),
    'endpoint',
  );
  const intent = await ok(
    t.post<Intent>('/testmode/intents/create', {
      ...as,
      body: {
        wallet_id: wallet.id,
        seller_id: seller.id,
        amount_cents: 5000,
        currency: 'BRL',
        sandbox: true,
        provider: 'mercadopago',
        status: 'pending',
      },
    }),
    'intent',
  );
  const webhookEvents = await ok(
    t.get<PaymentEvent[]>(`/wallets/${wallet.id}/webhooks/events`, as),
    'webhook events',
  );
  const deliveries = await ok(
    t.get<WebhookDelivery[]>(`/webhooks/endpoints/${endpoint.id}/deliveries`, as),
    'deliveries',
  );
  assert.ok(
    webhookEvents.length > 0 && deliveries.length > 0,
    'world: the intent made an event and a delivery',
  );

  // 8. An invitation, whose mail is in the event's log with those the steps above declared
  //    (confirmations, the signature requests).
  const invitation = await ok(
    t.post<{ id: string }>(`/events/${event.id}/invitations`, {
      ...as,
      body: { email: 'invited@example.com', role: 'staff' },
    }),
    'invitation',
  );
  // Every mail settled before the fuzz starts (kept by the development mailbox, a certificate's PDF
  // stored on the way), so the sender writes nothing later.
  for (let tries = 0; ; ) {
    const [pending] = await queryRows<{ count: number }>(
      t.db,
      sql`select count(*)::int as count from emails where status = 'queued'`,
    );
    if (pending?.count === 0) break;
    assert.ok(++tries < 800, 'world: the mails settle');
    t.mailer.wake();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const [mail] = await queryRows<{ id: string }>(
    t.db,
    sql`select id from emails where data->>'invitation_id' = ${invitation.id}`,
  );
  assert.ok(mail !== undefined, "world: the invitation's mail");

  return {
    owner,
    member,
    guest,
    ids: {
      email: mail.id,
      invitation: invitation.id,
      event: event.id,
      draftEvent: draftEvent.id,
      edition: edition.id,
      draftEdition: draftEdition.id,
      program: program.id,
      freeProgram: freeProgram.id,
      certification: certification.id,
      ticketType: ticketType.id,
      registration: registration.id,
      badge: badge.id,
      emission: emissions[0].id,
      signatureRequest: pending.id,
      signature: signature.id,
      project: project.id,
      wallet: wallet.id,
      seller: seller.id,
      collector: collectorId,
      endpoint: endpoint.id,
      intent: intent.id,
      webhookEvent: webhookEvents[0].id,
      delivery: deliveries[0].id,
      job,
      certificate: certificate.id,
      verificationCode: certificate.verification_code,
      statusList: statusList!.id,
      badgeUrl: memberBadge.variables.action_url,
    },
    slugs: { event: event.slug, edition: edition.slug },
    tokens: { signature: pending.token, revoke: signature.revoke_token },
    oauth: { state: '', code: '' },
  };
}

/**
 * Fresh state an operation's example needs just before its batch: the OAuth callback takes a
 * consent left unanswered (its state expires after 10 minutes, so it is not made at the start).
 */
export async function prepareFor(t: TestApp, world: World, op: Operation): Promise<void> {
  if (op.key !== 'GET /providers/{provider}/callback') return;
  const { search } = await consent(t, world.owner, { flow: 'seller', wallet_id: world.ids.wallet as string });
  const params = new URLSearchParams(search);
  world.oauth = { state: params.get('state') ?? '', code: params.get('code') ?? '' };
}

/** Starts an OAuth connection and follows the simulator's consent: the callback's query string. */
async function consent(
  t: TestApp,
  owner: TestUser,
  fields: Record<string, string>,
): Promise<{ search: string }> {
  const connect = await t.post<ConnectResult>('/providers/mercadopago/connect', {
    token: owner.token,
    body: { final_redirect_url: 'https://app.example.com/done', ...fields },
  });
  assert.equal(connect.status, 200, `world: connect: ${connect.text}`);
  const answer = await fetch(connect.body.data.url as string, { redirect: 'manual' });
  assert.equal(answer.status, 302, 'world: the simulator approves the consent');
  return { search: new URL(answer.headers.get('location') as string).search.slice(1) };
}

/** The request an operation's defects are injected into. */
export interface Base {
  /** Path parameter values, percent-encoded. */
  path: Record<string, string>;
  /** Query parameters, names and values percent-encoded. */
  query: Array<[string, string]>;
  /** The documented example with this world's ids; undefined for an operation without a body. */
  body: unknown;
  /** Headers for the final request target (the owner's token; the webhook signature). */
  headers(target: string): Array<[string, string]>;
}

/** The value of a path parameter for an operation; unknown names fail loudly. */
function pathValue(world: World, op: Operation, name: string): string {
  const { ids } = world;
  const byName: Record<string, string | undefined> = {
    event_id: op.path.startsWith('/webhooks/events/')
      ? ids.webhookEvent
      : op.key === 'POST /events/{event_id}/publish'
        ? ids.draftEvent
        : ids.event,
    edition_id: /^(POST \/events\/\{event_id\}\/editions\/\{edition_id\}\/publish|DELETE )/.test(op.key)
      ? ids.draftEdition
      : ids.edition,
    template_id: op.path.startsWith('/badges/') ? ids.badge : ids.certification,
    event_slug: world.slugs.event,
    edition_slug: world.slugs.edition,
    program_id: ids.program,
    request_id: ids.signatureRequest,
    registration_id: ids.registration,
    user_id: world.member.id,
    project_id: ids.project,
    kind: op.path.startsWith('/events/') ? 'registration_confirmed' : 'verify',
    provider: 'mercadopago',
    wallet_id: ids.wallet,
    intent_id: ids.intent,
    endpoint_id: ids.endpoint,
    delivery_id: ids.delivery,
    job_id: ids.job,
    invitation_id: ids.invitation,
    certificate_id: ids.certificate,
    email_id: ids.email,
    verification_code: ids.verificationCode,
    list_id: ids.statusList,
    code: ids.badgeUrl?.slice(ids.badgeUrl.lastIndexOf('/') + 1),
    // A console file's name (its build may be absent in a test run: then every name is a 404).
    file: 'index.js',
  };
  const value = byName[name];
  if (value === undefined) {
    throw new Error(`${op.key}: the fuzz has no value for path parameter {${name}}: add it to world.ts`);
  }
  return encodeURIComponent(value);
}

/** Changes to documented examples so that, in this world, they would succeed. */
function exampleFor(world: World, op: Operation): unknown {
  if (op.body === undefined) return undefined;
  const { ids } = world;
  const edits: Record<string, Record<string, unknown>> = {
    'POST /events/{event_id}/members': { email: world.guest.email },
    'DELETE /events/{event_id}/members/{user_id}': { email: world.member.email },
    'PATCH /events/{event_id}/editions/{edition_id}': { ends_at: liveAt(80) },
    'POST /editions/{edition_id}/programs': { starts_at: liveAt(2), ends_at: liveAt(3) },
    'PATCH /programs/{program_id}': { ends_at: liveAt(4) },
    'POST /certifications/templates/{template_id}/link': { program_id: ids.freeProgram },
    'DELETE /certifications/templates/{template_id}/link': { program_id: ids.program },
    'POST /editions/{edition_id}/registrations': { ticket_type_id: ids.ticketType },
    'POST /editions/{edition_id}/check-ins': {
      code: ids.badgeUrl,
      program_id: ids.freeProgram,
      scanned_at: new Date().toISOString(),
    },
    'POST /editions/{edition_id}/certificates/issue': { template_ids: [ids.certification] },
    'POST /projects/{project_id}/members': { actor_email: world.guest.email },
    'DELETE /projects/{project_id}/members': { actor_email: world.member.email },
    'POST /providers/{provider}/connect': { wallet_id: ids.wallet },
    'POST /providers/{provider}/revoke': { id: ids.collector },
    'POST /wallets/{wallet_id}/collector': { collector_id: ids.collector },
    'POST /testmode/sellers': { wallet_id: ids.wallet },
    'POST /testmode/intents/create': { wallet_id: ids.wallet, seller_id: ids.seller },
  };
  const example = structuredClone(op.example) as Record<string, unknown>;
  return { ...example, ...edits[op.key] };
}

/** The query string an operation needs to succeed (tokens, OAuth state, notification id). */
function queryFor(world: World, op: Operation): Array<[string, string]> {
  const enc = (name: string, value: string): [string, string] => [name, encodeURIComponent(value)];
  switch (op.key) {
    case 'GET /signature-requests/by-token':
    case 'POST /signature-requests/fulfill':
    case 'POST /signature-requests/deny':
      return [enc('token', world.tokens.signature)];
    case 'POST /signatures/revoke':
      return [enc('token', world.tokens.revoke)];
    case 'GET /providers/{provider}/callback':
      return [enc('code', world.oauth.code), enc('state', world.oauth.state)];
    case 'POST /webhooks/{provider}':
      return [enc('data.id', '1234567890'), enc('type', 'payment')];
    default:
      return [];
  }
}

export function baseOf(world: World, op: Operation): Base {
  const path: Record<string, string> = {};
  for (const parameter of op.pathParams) path[parameter.name] = pathValue(world, op, parameter.name);
  const isNotification = op.key === 'POST /webhooks/{provider}';
  return {
    path,
    query: queryFor(world, op),
    body: exampleFor(world, op),
    headers(target) {
      const headers: Array<[string, string]> = [['authorization', `Bearer ${world.owner.token}`]];
      if (isNotification) {
        // Signed as Mercado Pago signs, over what is sent: the defect, not the signature, must be
        // what the service refuses.
        const query = new URLSearchParams(target.split('?')[1] ?? '');
        const requestId = `fuzz-${randomBytes(6).toString('hex')}`;
        const dataId = query.get('data.id') ?? undefined;
        headers.push(['x-request-id', requestId]);
        headers.push(['x-signature', signNotification({ secret: WEBHOOK_SECRET, dataId, requestId })]);
      }
      return headers;
    },
  };
}

/**
 * A fingerprint of every row of every table of the service (schema `public`), `actors.last_seen_at`
 * left out: authenticated reads legitimately touch it. Equal fingerprints: no row was added,
 * removed or changed.
 */
export async function fingerprint(t: TestApp): Promise<Map<string, string>> {
  const tables = await queryRows<{ name: string }>(
    t.db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const parts = tables.map(
    ({ name }) =>
      sql`select ${name}::text as name, md5(coalesce(string_agg(r.row, '|' order by r.row), '')) as hash
          from (select (to_jsonb(t) - ${name === 'actors' ? 'last_seen_at' : ''}::text)::text as row
                from ${sql.identifier(name)} t) r`,
  );
  const rows = await queryRows<{ name: string; hash: string }>(t.db, sql.join(parts, sql` union all `));
  return new Map(rows.map((row) => [row.name, row.hash]));
}
