/**
 * The sellers list of docs/reference/payments.md (`GET /wallets/{wallet_id}/sellers`): the sellers
 * table is this feature's, so is its read; the route keeps its `Wallets` tag and place (registered
 * right after the wallet routes).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../../kernel/auth/plugin.ts';
import { pageWindow, paginated } from '../../../kernel/http/respond.ts';
import { errorResponses, idParams, listEnvelope, PageQuerySchema } from '../../../kernel/http/schemas.ts';
import type { PaymentsDeps } from '../deps.ts';
import { SELLER_EXAMPLE, Seller } from '../wallets/index.ts';
import * as connections from './connections.service.ts';

const tags = ['Wallets'];
const walletParams = idParams('wallet_id');

export const sellerRoutes: FastifyPluginAsyncTypebox<PaymentsDeps> = async (app, { db }) => {
  app.get(
    '/wallets/:wallet_id/sellers',
    {
      config: { auth: 'required' },
      schema: {
        tags,
        operationId: 'listWalletSellers',
        summary: 'List the wallet’s sellers',
        description:
          'The owner only (anyone else gets the 404 of an unknown id). Newest first; revoked sellers ' +
          'included; credentials never shown.',
        params: walletParams,
        querystring: PageQuerySchema,
        response: {
          200: listEnvelope(Seller, SELLER_EXAMPLE, 'payments'),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) =>
      paginated(
        request,
        await connections.listSellers(
          db,
          request.params.wallet_id,
          actorOf(request),
          pageWindow(request.query),
        ),
      ),
  );
};
