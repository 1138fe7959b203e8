import { splitAgentFee } from '@app/payments';
import { disputeMoneyIds, disputeRefund } from './dispute-refund.rule';

describe('disputeRefund', () => {
  const fee = 10_001n;
  const tx = {
    agentFee: fee,
    ...(({ cut, earnings }) => ({ platformCut: cut, agentEarnings: earnings }))(splitAgentFee(fee)),
  };

  it('agent_wins refunds nothing and leaves the transaction completed', () => {
    expect(disputeRefund('agent_wins', tx)).toEqual({ fee: 0n, cut: 0n, earnings: 0n, transactionStatus: 'completed' });
  });

  it('client_wins refunds all of the agent fee, by the charge own split, and marks it refunded', () => {
    expect(disputeRefund('client_wins', { agentFee: fee, platformCut: 7n, agentEarnings: fee - 7n })).toEqual({
      fee,
      cut: 7n,
      earnings: fee - 7n,
      transactionStatus: 'refunded',
    });
  });

  it('split refunds half of the agent fee rounded down, divided by the fee rule', () => {
    const r = disputeRefund('split', tx);
    expect(r.fee).toBe(5_000n);
    expect({ cut: r.cut, earnings: r.earnings }).toEqual(splitAgentFee(5_000n));
    expect(r.cut + r.earnings).toBe(5_000n);
    expect(r.transactionStatus).toBe('completed');
  });

  it('derives the refund and debt ids from the dispute id', () => {
    expect(disputeMoneyIds('dsp_01abc')).toEqual({ refundId: 'rfd_01abc', debtId: 'dbt_01abc' });
  });
});
