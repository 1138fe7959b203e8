import { formatMicros } from '@app/common';
import { WithdrawalMoney } from './repositories/withdrawals.repository';

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
