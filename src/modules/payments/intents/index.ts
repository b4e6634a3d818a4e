/**
 * The intents feature's public surface: its routes (intents and test mode), the transitions (the
 * one writer of an intent's status, `intents.transitions.ts`), and the intents, their payment
 * events and their refund reservations as the features above read and write them (checkout's
 * refunds, webhooks' events and inbound notifications). The SQL stays in the repositories here.
 */

export {
  addRefund,
  type EventFilter,
  enqueueDeliveries,
  findCheckoutMoney,
  findEventOfOwner,
  findIntent,
  findIntentByTransaction,
  insertEventOfNoIntent,
  insertIntent,
  insertPaymentEvent,
  listEventsOfWallet,
  lockIntent,
  sumCheckoutSales,
} from './intents.repository.ts';
export { intentRoutes } from './intents.routes.ts';
export { INTENT_EXAMPLE, Intent, RefundIntentBody } from './intents.schemas.ts';
export { requireIntentOwner } from './intents.service.ts';
export {
  INTENT_STATUS_DETAILS,
  INTENT_STATUSES,
  type IntentRow,
  type IntentStatus,
  type IntentStatusDetail,
  type PaymentEventRow,
} from './intents.table.ts';
export {
  applyIntentStatus,
  canTransition,
  EVENT_DATA_FIELDS,
  recordEvent,
  type StatusChange,
} from './intents.transitions.ts';
export {
  findPendingRefund,
  findRefund,
  insertPendingRefund,
  letGoOfRefund,
  lockPendingRefund,
  markRefundSettled,
  recordRefundSend,
  releaseRefund,
  takeOverRefund,
} from './refunds.repository.ts';
export type { IntentRefundRow } from './refunds.table.ts';
export { testModeRoutes } from './testmode.routes.ts';
