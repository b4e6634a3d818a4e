/**
 * Mercado Pago payment `status` / `status_detail` in the intent vocabulary (docs/reference/webhooks.md step
 * 3). An unknown status maps to `processing`: it is not final, so a later, known notification can still move
 * the intent, whereas guessing a final status could freeze it wrongly.
 */

import type { MappedStatus } from '../provider.ts';
import type { IntentStatus, IntentStatusDetail } from '../vocabulary.ts';

const STATUS: Record<string, IntentStatus> = {
  approved: 'succeeded',
  pending: 'pending',
  in_process: 'pending',
  authorized: 'pending',
  in_mediation: 'processing',
  rejected: 'rejected',
  cancelled: 'cancelled',
  refunded: 'refunded',
  charged_back: 'refunded',
};

const DETAIL: Record<string, IntentStatusDetail> = {
  cc_rejected_insufficient_amount: 'insufficient_funds',
  cc_rejected_high_risk: 'high_risk',
  rejected_high_risk: 'high_risk',
  cc_rejected_blacklist: 'high_risk',
  rejected_by_regulations: 'high_risk',
  cc_rejected_bad_filled_card_number: 'invalid_card',
  cc_rejected_bad_filled_other: 'invalid_card',
  cc_rejected_bad_filled_date: 'invalid_card',
  cc_rejected_card_type_not_allowed: 'invalid_card',
  cc_rejected_card_disabled: 'card_disabled',
  cc_rejected_bad_filled_security_code: 'invalid_security_code',
  pending_review_manual: 'pending_review',
  pending_contingency: 'pending_review',
  expired: 'expired',
};

export function mapMercadoPagoStatus(status: string, statusDetail: string | null | undefined): MappedStatus {
  const mapped = STATUS[status] ?? 'processing';
  const detail = statusDetail == null ? undefined : DETAIL[statusDetail];
  if (detail !== undefined) return { status: mapped, statusDetail: detail };
  // A rejection always says why; one Mercado Pago reasons we do not distinguish is `other`.
  return { status: mapped, statusDetail: mapped === 'rejected' ? 'other' : null };
}
