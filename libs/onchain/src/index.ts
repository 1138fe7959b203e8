/** Sending money on a chain: the settlement provider seam (local, evm, facilitator), the chain sender, payouts. */
export { ChainTxRecovery } from './chain/chain-tx-recovery';
export { OpenChainTxs } from './chain/open-chain-txs';
export type { Unfinished, UnfinishedRow } from './unfinished';
export type { BindSettlementHash } from './chain/settlement-batcher';
export { OnchainModule, OnchainOptions } from './onchain.module';
export { PayoutTransfer } from './payout-transfer';
export type { PayoutFence, PayoutTransferRequest } from './payout-transfer';
export { logSettlementConfirmed, SettledPayment } from './settlement-log';
export { SettlementFailed, SettlementFailureReason } from './settlement/settlement-failed';
export { HOLD_MS, PayerHolds } from './settlement/payer-holds';
export type { HeldPayment } from './settlement/payer-holds';
export {
  HeldPaymentRef,
  SettleRequest,
  SettlementAdapter,
  SettlementUndecided,
  TransferOutcome,
  TransferRequest,
} from './settlement/settlement.adapter';
