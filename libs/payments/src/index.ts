export { TransactionEntity } from './entities/transaction.entity';
export { WithdrawalEntity } from './entities/withdrawal.entity';
export { RefundEntity } from './entities/refund.entity';
export type { DebtState } from './debts/agent-debts.repository';
export { Fees, PLATFORM_FEE, splitAgentFee, WITHDRAWAL_FEE, WITHDRAWAL_MINIMUM } from './fees';
export { PaymentsRepository } from './payments.repository';
export { toSettleRequest } from './payment-rows';
export { AuthorizePayment } from './usecases/authorize-payment/authorize-payment.usecase';
export type { AuthorizeOptions } from './usecases/authorize-payment/authorize-payment.usecase';
export { SettlePayment } from './usecases/settle-payment/settle-payment.usecase';
export { AdmitPayment, PaymentAdmission } from './usecases/admit-payment/admit-payment.usecase';
export { RecordCharge } from './usecases/record-charge/record-charge.usecase';
export type { RecordedCharge } from './usecases/record-charge/record-charge.usecase';
export type { ChargeFacts, Delivery, Funding, PaidSettlement, RunCharge, SettleFailure } from './funding/funding';
export { X402Funding } from './funding/x402-funding';
export { PaymentFundings } from './funding/payment-fundings';
export type { PaymentLookup } from './funding/payment-fundings';
export type { DuePayment, PaymentRecord } from './payments.repository';
export { HoldReleaseSchedule, RELEASE_BUCKET_MS } from './hold-release-schedule';
export type { ExecutionCharge } from './usecases/record-charge/execution-charge';
export { PAYOUT_MAX_ATTEMPTS } from './payout-sender';
export { WithdrawalsService } from './withdrawals.service';
export { RefundsService } from './refunds.service';
export { ChainBudgetPostings } from './chain-budget-postings';
export type { ChainBudgetClose } from './chain-budget-postings';
export type { OpenRefund } from './refunds.service';
export type { DisputedTransaction } from './repositories/transactions.repository';
export type { WithdrawalSummary } from './repositories/withdrawals.repository';
export { PAYMENT_CHECKS } from './payment-invariants';
export { PaymentsModule } from './payments.module';
export { PaymentsTestClock } from './test-clock';
export type { PaymentsDueRun, PaymentsShift } from './test-clock';
export { FailWithdrawal } from './usecases/fail-withdrawal/fail-withdrawal.usecase';
export { FreezeDisputedEarnings } from './usecases/freeze-disputed-earnings/freeze-disputed-earnings.usecase';
export { FreezeHeldEarnings } from './usecases/freeze-held-earnings/freeze-held-earnings.usecase';
export type { Freeze } from './usecases/freeze-disputed-earnings/freeze-disputed-earnings.usecase';
export { GetBalance } from './usecases/get-balance/get-balance.usecase';
export type { AgentBalance } from './usecases/get-balance/get-balance.usecase';
export { GetDisputeDebt } from './usecases/get-dispute-debt/get-dispute-debt.usecase';
export { GetDisputedTransaction } from './usecases/get-disputed-transaction/get-disputed-transaction.usecase';
export { GetEarningsHistory } from './usecases/get-earnings-history/get-earnings-history.usecase';
export { GetTransaction } from './usecases/get-transaction/get-transaction.usecase';
export { GetWithdrawal } from './usecases/get-withdrawal/get-withdrawal.usecase';
export { ListWithdrawals } from './usecases/list-withdrawals/list-withdrawals.usecase';
export { ListPendingPayouts, PENDING_KINDS } from './usecases/list-pending-payouts/list-pending-payouts.usecase';
export type {
  PendingKind,
  PendingMoney,
  PendingMoneyList,
} from './usecases/list-pending-payouts/list-pending-payouts.usecase';
export { ProcessRefund } from './usecases/process-refund/process-refund.usecase';
export { ProcessWithdrawal } from './usecases/process-withdrawal/process-withdrawal.usecase';
export { RecoverRegistrationPayment } from './usecases/recover-registration-payment/recover-registration-payment.usecase';
export type { RegistrationRecovery } from './usecases/recover-registration-payment/recover-registration-payment.usecase';
export { ReleaseDueHolds } from './usecases/release-due-holds/release-due-holds.usecase';
export { ReleaseHold } from './usecases/release-hold/release-hold.usecase';
export { RequestWithdrawal } from './usecases/request-withdrawal/request-withdrawal.usecase';
export type { RequestWithdrawalCommand } from './usecases/request-withdrawal/request-withdrawal.usecase';
export { RetryRefund } from './usecases/retry-refund/retry-refund.usecase';
export { SettleDisputedEarnings } from './usecases/settle-disputed-earnings/settle-disputed-earnings.usecase';
export type {
  DisputeSettlement,
  SettleDisputedEarningsCommand,
} from './usecases/settle-disputed-earnings/settle-disputed-earnings.usecase';
