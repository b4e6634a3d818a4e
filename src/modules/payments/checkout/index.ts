/**
 * The checkout feature's public surface: the payments port (`createPaymentsPort`), refunds (every
 * refund of an intent, their route and their resume job), the refund job, and the job kinds a
 * checkout schedules.
 */

export { type JobContext, RECONCILE_JOB, REFUND_JOB, refundJob } from './checkout.jobs.ts';
export { createPaymentsPort } from './checkout.service.ts';
export { type RefundRoutesDeps, refundRoutes } from './refunds.routes.ts';
export { RESUME_REFUND_JOB, type RefundContext, resumeRefundJob } from './refunds.ts';
