/**
 * Webhook endpoints of a wallet (docs/reference/webhooks.md): register, list, read, change, delete and rotate
 * the signing secret. Secrets are sealed with SECRETS_KEY at rest (the worker needs the plaintext
 * to sign), returned only by creation and rotation, and never logged.
 */
import type { Identity } from '../../../../kernel/auth/identity.ts';
import type { Config } from '../../../../kernel/config.ts';
import type { Database, Executor } from '../../../../kernel/db/client.ts';
import { uuidv7 } from '../../../../kernel/db/ids.ts';
import type { Window } from '../../../../kernel/db/paging.ts';
import { AppError, conflict, notFound } from '../../../../kernel/http/errors.ts';
import { serialize } from '../../../../kernel/http/respond.ts';
import { assertPublicUrl } from '../../../../kernel/net/private-address.ts';
import { seal } from '../../../../kernel/secret-box.ts';
import { newWebhookSecret } from '../../../../kernel/webhook-signature.ts';
import type { Outbox } from '../../deps.ts';
import { insertEventOfNoIntent } from '../../intents/index.ts';
import { requireWalletOwner } from '../../wallets/index.ts';
import { insertDueDelivery } from '../delivery/index.ts';
import { TEST_MESSAGE, WEBHOOK_TEST_TYPE } from '../webhook-events/webhook-payloads.ts';
import * as repo from './endpoints.repository.ts';
import type { CreateEndpointBody, UpdateEndpointBody } from './endpoints.schemas.ts';

/** How long the previous secret keeps signing after a rotation. */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60 * 1000;

interface Deps {
  db: Database;
  config: Config;
}

function requireSecretsKey(config: Config): Buffer {
  if (config.secretsKey === undefined) {
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'SECRETS_KEY is not configured: webhook secrets cannot be stored',
    );
  }
  return config.secretsKey;
}

async function checkTarget(config: Config, url: string): Promise<void> {
  if (!config.webhooks.allowPrivateTargets) await assertPublicUrl(url);
}

/** The endpoint, if the caller owns its wallet; anyone else's is the 404 of an unknown id. */
export async function requireEndpoint(db: Executor, endpointId: string, actor: Identity) {
  const endpoint = await repo.findEndpointOfOwner(db, endpointId, actor.userId);
  if (endpoint === undefined) throw notFound('Webhook endpoint');
  return endpoint;
}

export async function createEndpoint(
  { db, config }: Deps,
  walletId: string,
  actor: Identity,
  body: CreateEndpointBody,
) {
  await requireWalletOwner(db, walletId, actor);
  const key = requireSecretsKey(config);
  await checkTarget(config, body.url);
  const secret = newWebhookSecret();
  const endpoint = await repo.insertEndpoint(db, {
    id: uuidv7(),
    wallet_id: walletId,
    name: body.name,
    url: body.url,
    event_types: body.event_types ?? null,
    secret: seal(key, secret),
    // The owner's mails about its health are written in the language of this request.
    language: actor.language ?? 'en',
  });
  return { ...serialize(endpoint), secret };
}

export async function listEndpoints({ db }: Deps, walletId: string, actor: Identity, window: Window) {
  await requireWalletOwner(db, walletId, actor);
  const page = await repo.listEndpointsOfWallet(db, walletId, window);
  return { ...page, items: page.items.map(serialize) };
}

/** The endpoint with its health (issue 17). */
export async function getEndpoint({ db }: Deps, endpointId: string, actor: Identity) {
  const endpoint = await requireEndpoint(db, endpointId, actor);
  const health = await repo.findEndpointHealth(db, endpointId);
  if (health === undefined) throw notFound('Webhook endpoint');
  const attempts = Number(health.attempts);
  return {
    ...serialize(endpoint),
    health: {
      state: health.state,
      since: new Date(health.since).toISOString(),
      attempts,
      success_rate:
        attempts === 0 ? null : Math.round((Number(health.successes) / attempts) * 10_000) / 10_000,
      consecutive_failures: Number(health.consecutive_failures),
      paused_until: health.paused_until === null ? null : new Date(health.paused_until).toISOString(),
    },
  };
}

export async function updateEndpoint(
  { db, config }: Deps,
  endpointId: string,
  actor: Identity,
  body: UpdateEndpointBody,
) {
  await requireEndpoint(db, endpointId, actor);
  if (body.url !== undefined) await checkTarget(config, body.url);
  const patch: repo.EndpointPatch = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.url !== undefined) patch.url = body.url;
  if (body.event_types !== undefined) patch.event_types = body.event_types;
  if (body.enabled !== undefined) {
    patch.enabled = body.enabled;
    // A reason is the service's (e.g. `gone` after a 410); the owner turning it on settles it.
    if (body.enabled) patch.disabled_reason = null;
  }
  return serialize(await repo.updateEndpoint(db, endpointId, patch));
}

export async function deleteEndpoint({ db }: Deps, endpointId: string, actor: Identity) {
  await requireEndpoint(db, endpointId, actor);
  const deleted = await repo.deleteEndpoint(db, endpointId);
  // Deleted concurrently between the check and the delete.
  if (deleted === undefined) throw notFound('Webhook endpoint');
  return serialize(deleted);
}

/**
 * A new secret; the current one becomes the previous and keeps signing for 24 hours, so
 * subscribers can switch without missing a delivery. A second rotation within the window drops
 * the older previous secret. Row-locked so two concurrent rotations do not lose a secret.
 */
export async function rotateSecret({ db, config }: Deps, endpointId: string, actor: Identity) {
  await requireEndpoint(db, endpointId, actor);
  const key = requireSecretsKey(config);
  const secret = newWebhookSecret();
  const endpoint = await db.transaction(async (tx) => {
    const current = await repo.lockSecret(tx, endpointId);
    if (current === undefined) throw notFound('Webhook endpoint');
    return repo.updateEndpoint(tx, endpointId, {
      secret: seal(key, secret),
      previous_secret: current,
      previous_secret_expires_at: new Date(Date.now() + PREVIOUS_SECRET_TTL_MS),
    });
  });
  return { ...serialize(endpoint), secret };
}

/**
 * Sends a `webhook.test` event to this endpoint through the normal delivery path: the event and
 * its one delivery are stored together, due now, and the workers are woken; the worker signs and
 * sends it like any other (retries included). Answers the delivery, which the owner can follow.
 * A disabled endpoint is refused (409): the worker would fail the delivery without an attempt.
 */
export async function sendTestEvent(
  { db, outbox }: { db: Database; outbox: Pick<Outbox, 'wake'> },
  endpointId: string,
  actor: Identity,
) {
  const delivery = await db.transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, endpointId, actor);
    if (!endpoint.enabled) {
      throw conflict(
        'endpoint_disabled',
        'The endpoint is disabled, so nothing would be sent: enable it first ' +
          `(PATCH /webhooks/endpoints/${endpoint.id} with enabled: true)`,
        { endpoint_id: endpoint.id },
      );
    }
    const eventId = uuidv7();
    await insertEventOfNoIntent(tx, {
      id: eventId,
      wallet_id: endpoint.wallet_id,
      type: WEBHOOK_TEST_TYPE,
      source: 'test',
      payload: {
        event_id: eventId,
        wallet_id: endpoint.wallet_id,
        endpoint_id: endpoint.id,
        message: TEST_MESSAGE,
      },
    });
    return insertDueDelivery(tx, {
      id: uuidv7(),
      event_id: eventId,
      endpoint_id: endpoint.id,
      wallet_id: endpoint.wallet_id,
    });
  });
  outbox.wake();
  return serialize(delivery);
}
