/** Routes of docs/reference/payments.md (wallets, collector binding). The OAuth routes and the sellers list live in connections/. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { created, ok, pageWindow, paginated } from '../../../kernel/http/respond.ts';
import {
  envelope,
  errorResponses,
  idParams,
  listEnvelope,
  PageQuerySchema,
  withReasons,
} from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import {
  BindCollectorBody,
  CreateWalletBody,
  SetFeeBody,
  SetSandboxBody,
  WALLET_EXAMPLE,
  Wallet,
} from './wallets.schemas.ts';
import * as wallets from './wallets.service.ts';

const tags = ['Wallets'];
const walletParams = idParams('wallet_id');

export const walletRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db }) => {
  app.post(
    '/wallets',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'createWallet',
        summary: 'Create a wallet',
        description: 'Any authenticated caller, who becomes its owner. `name` is unique per owner (409).',
        body: CreateWalletBody,
        response: {
          201: envelope(Wallet, WALLET_EXAMPLE, 'payments', 201),
          ...errorResponses(400, 401, withReasons(409, 'name_taken')),
        },
      },
    },
    async (request, reply) =>
      created(request, reply, await wallets.createWallet(db, actorOf(request), request.body)),
  );

  app.get(
    '/wallets',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWallets',
        summary: 'List my wallets',
        description: 'The wallets the caller owns, newest first.',
        querystring: PageQuerySchema,
        response: { 200: listEnvelope(Wallet, WALLET_EXAMPLE, 'payments'), ...errorResponses(400, 401) },
      },
    },
    async (request) =>
      paginated(request, await wallets.listMyWallets(db, actorOf(request), pageWindow(request.query))),
  );

  app.get(
    '/wallets/:wallet_id',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'getWallet',
        summary: 'Read a wallet',
        description:
          'The owner only; anyone else gets the 404 of an unknown id, so its existence is not revealed.',
        params: walletParams,
        response: {
          200: envelope(Wallet, WALLET_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ok(request, await wallets.getWallet(db, request.params.wallet_id, actorOf(request))),
  );

  app.patch(
    '/wallets/:wallet_id/sandbox',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'setWalletSandbox',
        summary: 'Switch sandbox mode',
        description:
          'The owner only (anyone else gets the 404 of an unknown id). A sandbox wallet accepts only ' +
          '`sandbox: true` intents.',
        params: walletParams,
        body: SetSandboxBody,
        response: {
          200: envelope(Wallet, { ...WALLET_EXAMPLE, sandbox: true }, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await wallets.setSandbox(db, request.params.wallet_id, actorOf(request), request.body)),
  );

  app.patch(
    '/wallets/:wallet_id/fee',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'setWalletFee',
        summary: 'Set the marketplace fee',
        description:
          'The owner only (anyone else gets the 404 of an unknown id). `fee_bps` in basis points, ' +
          '0..10000 (100 bps = 1%).',
        params: walletParams,
        body: SetFeeBody,
        response: {
          200: envelope(Wallet, { ...WALLET_EXAMPLE, fee_bps: 250 }, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await wallets.setFee(db, request.params.wallet_id, actorOf(request), request.body)),
  );

  app.post(
    '/wallets/:wallet_id/collector',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'bindWalletCollector',
        summary: 'Bind the wallet’s collector',
        description:
          'The owner only (anyone else gets the 404 of an unknown id). `collector_id` names a collector ' +
          'the caller owns (unknown or someone else’s: 404); a revoked collector is a 409.',
        params: walletParams,
        body: BindCollectorBody,
        response: {
          200: envelope(
            Wallet,
            { ...WALLET_EXAMPLE, collector_id: '01937a50-5555-7000-8000-000000000050' },
            'payments',
          ),
          ...errorResponses(400, 401, 404, withReasons(409, 'collector_revoked')),
        },
      },
    },
    async (request) =>
      ok(request, await wallets.bindCollector(db, request.params.wallet_id, actorOf(request), request.body)),
  );

  app.delete(
    '/wallets/:wallet_id/collector',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'unbindWalletCollector',
        summary: 'Unbind the wallet’s collector',
        description:
          'The owner only (anyone else gets the 404 of an unknown id). Answers the wallet with ' +
          '`collector_id` null (also when none was bound).',
        params: walletParams,
        response: {
          200: envelope(Wallet, WALLET_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      ok(request, await wallets.unbindCollector(db, request.params.wallet_id, actorOf(request))),
  );
};
