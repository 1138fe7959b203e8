import { AppException, ErrorDetails } from '@app/common';

/**
 * Why a settlement did not complete, where the caller acts on it: `authorization_expired_unused` is
 * final (never retried); `settlement_pending` is no failure: the outcome is not known yet (a
 * transaction carrying it was sent and not mined within the wait, or another process is settling
 * it), `details.txHash` names the transaction when one was sent, and the worker records the outcome.
 */
export type SettlementFailureReason =
  'authorization_expired_unused' | 'authorization_used_elsewhere' | 'unexpected_verify_error' | 'settlement_pending';

/**
 * A settlement that did not move the money (SETTLEMENT_FAILED), with its reason as a typed field
 * (also in `details.reason`, as the API has always answered it). Callers ask `instanceof` and
 * `reason`, not the public code and a details string.
 */
export class SettlementFailed extends AppException {
  constructor(
    message: string,
    details?: ErrorDetails,
    readonly reason?: SettlementFailureReason,
  ) {
    super('SETTLEMENT_FAILED', message, reason === undefined ? details : { ...details, reason });
  }
}
