/** Schemas of event payment links (docs/reference/checkout.md). */
import { type Static, Type } from 'typebox';
import { Uuid } from '../../../kernel/http/schemas.ts';

export const PaymentLink = Type.Object(
  {
    event_id: Uuid(),
    wallet_id: Uuid({ description: 'the wallet that receives the event’s ticket payments' }),
    seller_id: Uuid({ description: 'the Mercado Pago account (a seller of the wallet) that is paid' }),
    sandbox: Type.Boolean({
      description: 'the wallet’s sandbox flag: checkouts open Mercado Pago’s sandbox',
    }),
  },
  { title: 'PaymentLink' },
);
export type PaymentLink = Static<typeof PaymentLink>;

export const PutPaymentLinkBody = Type.Object(
  {
    wallet_id: Uuid({ description: 'a wallet the caller owns' }),
    seller_id: Uuid({ description: 'a live seller of that wallet (connected with the `seller` flow)' }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        wallet_id: '01937a60-5555-7000-8000-000000000050',
        seller_id: '01937a61-6666-7000-8000-000000000060',
      },
    ],
  },
);
export type PutPaymentLinkBody = Static<typeof PutPaymentLinkBody>;

export const PAYMENT_LINK_EXAMPLE = {
  event_id: '01937a4f-1111-7000-8000-000000000010',
  wallet_id: '01937a60-5555-7000-8000-000000000050',
  seller_id: '01937a61-6666-7000-8000-000000000060',
  sandbox: true,
};
