import { FailWithdrawal } from './fail-withdrawal/fail-withdrawal.usecase';
import { FreezeDisputedEarnings } from './freeze-disputed-earnings/freeze-disputed-earnings.usecase';
import { FreezeHeldEarnings } from './freeze-held-earnings/freeze-held-earnings.usecase';
import { GetBalance } from './get-balance/get-balance.usecase';
import { GetDisputeDebt } from './get-dispute-debt/get-dispute-debt.usecase';
import { GetDisputedTransaction } from './get-disputed-transaction/get-disputed-transaction.usecase';
import { GetEarningsHistory } from './get-earnings-history/get-earnings-history.usecase';
import { GetTransaction } from './get-transaction/get-transaction.usecase';
import { GetWithdrawal } from './get-withdrawal/get-withdrawal.usecase';
import { ListPendingPayouts } from './list-pending-payouts/list-pending-payouts.usecase';
import { ListWithdrawals } from './list-withdrawals/list-withdrawals.usecase';
import { ProcessRefund } from './process-refund/process-refund.usecase';
import { ProcessWithdrawal } from './process-withdrawal/process-withdrawal.usecase';
import { RecoverRegistrationPayment } from './recover-registration-payment/recover-registration-payment.usecase';
import { ReleaseDueHolds } from './release-due-holds/release-due-holds.usecase';
import { ReleaseHold } from './release-hold/release-hold.usecase';
import { RequestWithdrawal } from './request-withdrawal/request-withdrawal.usecase';
import { RetryRefund } from './retry-refund/retry-refund.usecase';
import { SettleDisputedEarnings } from './settle-disputed-earnings/settle-disputed-earnings.usecase';

export { FailWithdrawal, FreezeDisputedEarnings, GetBalance, GetDisputeDebt, GetDisputedTransaction };
export { GetEarningsHistory, GetTransaction, GetWithdrawal, ListWithdrawals, ProcessRefund, ProcessWithdrawal };
export { RecoverRegistrationPayment, ReleaseDueHolds, ReleaseHold, RequestWithdrawal, RetryRefund };
export { FreezeHeldEarnings, ListPendingPayouts, SettleDisputedEarnings };
export { PENDING_KINDS } from './list-pending-payouts/list-pending-payouts.usecase';
export type { PendingKind, PendingMoney, PendingMoneyList } from './list-pending-payouts/list-pending-payouts.usecase';
export type { Freeze } from './freeze-disputed-earnings/freeze-disputed-earnings.usecase';
export type { AgentBalance } from './get-balance/get-balance.usecase';
export type { RegistrationRecovery } from './recover-registration-payment/recover-registration-payment.usecase';
export type { RequestWithdrawalCommand } from './request-withdrawal/request-withdrawal.usecase';
export type {
  DisputeSettlement,
  SettleDisputedEarningsCommand,
} from './settle-disputed-earnings/settle-disputed-earnings.usecase';

/** Payments' use cases (providers and exports of PaymentsModule). */
export const PAYMENTS_USECASES = [
  FailWithdrawal,
  FreezeDisputedEarnings,
  FreezeHeldEarnings,
  GetBalance,
  GetDisputeDebt,
  GetDisputedTransaction,
  GetEarningsHistory,
  GetTransaction,
  GetWithdrawal,
  ListPendingPayouts,
  ListWithdrawals,
  ProcessRefund,
  ProcessWithdrawal,
  RecoverRegistrationPayment,
  ReleaseDueHolds,
  ReleaseHold,
  RequestWithdrawal,
  RetryRefund,
  SettleDisputedEarnings,
];
