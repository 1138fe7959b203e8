import { formatMicros } from '@app/common';
import { PayoutTable } from '@app/onchain';
import { WithdrawalMoney } from './repositories/withdrawals.repository';

/** A withdrawal's transfer sends its net amount to its destination. */
export const WITHDRAWAL_PAYOUT: PayoutTable = {
  table: 'withdrawals',
  toColumn: 'destination_wallet',
  amountColumn: 'net_amount',
};

/** A withdrawal's money as its events carry it. */
export function withdrawalEventData(w: WithdrawalMoney) {
  return {
    withdrawalId: w.id,
    agentId: w.agentId,
    amount: formatMicros(w.amount),
    fee: formatMicros(w.fee),
    netAmount: formatMicros(w.netAmount),
    destinationWallet: w.destinationWallet,
  };
}
