export * from './entities/payment.entity';
export * from './entities/transaction.entity';
export * from './entities/escrow-hold.entity';
export * from './entities/withdrawal.entity';
export * from './entities/refund.entity';
export * from './entities/agent-debt.entity';
export * from './debts/agent-credit';
export * from './debts/agent-debts.repository';
export * from './withdrawal-reserve';
export * from './fees';
export { bindSettlementHash, PaymentsRepository } from './payments.repository';
export { toSettleRequest, unsavedReservation } from './payment-rows';
export { AuthorizeOptions, AuthorizePayment } from './usecases/authorize-payment/authorize-payment.usecase';
export {
  AUTHORIZATION_EXPIRY_MARGIN_S,
  EXPIRED_UNUSED,
  settleRetryDelayMs,
  SettlePayment,
} from './usecases/settle-payment/settle-payment.usecase';
export { AdmitPayment, PaymentAdmission } from './usecases/admit-payment/admit-payment.usecase';
export { RecordCharge } from './usecases/record-charge/record-charge.usecase';
export { ChargeFacts, Funding, PaidSettlement, SettleFailure } from './funding/funding';
export { X402Funding } from './funding/x402-funding';
export { PaymentFundings } from './funding/payment-fundings';
export * from './escrow.service';
export * from './withdrawals.service';
export * from './refunds.service';
export * from './usecases';
export type { DisputedTransaction } from './repositories/transactions.repository';
export type { WithdrawalSummary } from './repositories/withdrawals.repository';
export * from './registration-fee.x402';
export * from './payment-invariants';
export * from './payments.module';
export * from './test-clock';
