/** Wallets: creation, the caller's wallets, sandbox flag, fee and collector binding. */
import type { Identity } from '../../../kernel/auth/identity.ts';
import type { Database } from '../../../kernel/db/client.ts';
import { describeConstraint } from '../../../kernel/db/errors.ts';
import { uuidv7 } from '../../../kernel/db/ids.ts';
import type { Window } from '../../../kernel/db/paging.ts';
import { conflict, notFound } from '../../../kernel/http/errors.ts';
import { serialize } from '../../../kernel/http/respond.ts';
import { requireWalletOwner } from './wallets.access.ts';
import * as repo from './wallets.repository.ts';
import type { BindCollectorBody, CreateWalletBody, SetFeeBody, SetSandboxBody } from './wallets.schemas.ts';

describeConstraint('wallets_owner_name_unique', {
  reason: 'name_taken',
  field: 'name',
  message: 'name is already used by another of your wallets',
});

export async function createWallet(db: Database, actor: Identity, body: CreateWalletBody) {
  // A taken name is left to the unique index (409), which also settles concurrent creations.
  return serialize(await repo.insertWallet(db, { id: uuidv7(), owner_id: actor.userId, name: body.name }));
}

export async function listMyWallets(db: Database, actor: Identity, window: Window) {
  const page = await repo.listWalletsOfOwner(db, actor.userId, window);
  return { ...page, items: page.items.map(serialize) };
}

export async function getWallet(db: Database, walletId: string, actor: Identity) {
  return serialize(await requireWalletOwner(db, walletId, actor));
}

export async function setSandbox(db: Database, walletId: string, actor: Identity, body: SetSandboxBody) {
  await requireWalletOwner(db, walletId, actor);
  return serialize(await repo.updateWallet(db, walletId, { sandbox: body.sandbox }));
}

export async function setFee(db: Database, walletId: string, actor: Identity, body: SetFeeBody) {
  await requireWalletOwner(db, walletId, actor);
  return serialize(await repo.updateWallet(db, walletId, { fee_bps: body.fee_bps }));
}

/**
 * Binds a collector. Someone else's collector is reported as unknown (404), so a collector id
 * reveals nothing about other users; a revoked one of the caller's is a state conflict (409).
 */
export async function bindCollector(
  db: Database,
  walletId: string,
  actor: Identity,
  body: BindCollectorBody,
) {
  await requireWalletOwner(db, walletId, actor);
  const collector = await repo.findCollector(db, body.collector_id);
  if (collector === undefined || collector.owner_id !== actor.userId) throw notFound('Collector');
  if (collector.revoked_at !== null) throw conflict('collector_revoked', 'The collector has been revoked');
  return serialize(await repo.updateWallet(db, walletId, { collector_id: collector.id }));
}

export async function unbindCollector(db: Database, walletId: string, actor: Identity) {
  await requireWalletOwner(db, walletId, actor);
  return serialize(await repo.updateWallet(db, walletId, { collector_id: null }));
}
