import { Wallet } from 'ethers';
import { CapabilityInput } from '@app/agents';
import { ExecuteChainRoot, FinishChain } from '@app/chains';
import { ProcessRefund, RefundsService, RetryRefund } from '@app/payments';
import { MoneyContext, PaidCall } from '../support/money-context';
import { newWallet } from '../support/wallets';

const QUOTE: CapabilityInput = {
  id: 'quote',
  name: 'quote',
  description: 'Quotes a price',
  inputSchema: { type: 'object' },
  pricing: { model: 'dynamic', basePrice: 10_000n, maxPrice: 200_000n, currency: 'USDC' },
};

/**
 * Refunds that would cost more than they return (issue 28, item 5; resolutions §5, §6; moved from
 * refund-griefing.e2e): a refund below the dust floor waits for the payer's next one (one transfer
 * pays both), is sent alone only on an admin's request, and a failed refund is sent again (backoff,
 * or an admin); a chain root whose agent failed keeps the platform fee, the rest refunded. Production
 * defaults; the small refunds are the unused part of a dynamic price.
 */
describe('refunds below the dust floor and failed refunds (medium)', () => {
  let ctx: MoneyContext;
  let agentId: string;

  beforeAll(async () => {
    ctx = await MoneyContext.start();
    agentId = (await ctx.newAgent({ capabilities: [QUOTE] })).id;
  });
  afterAll(async () => {
    const violations = await ctx.violations();
    await ctx.close();
    expect(violations).toEqual([]);
  });

  /** A quote paid at its 0.20 cap (plus the platform fee) that costs `cost`: the rest is refunded. */
  const quote = (payer: Wallet, cost: string) =>
    ctx.newCharge(agentId, { payer, amount: 201_000n, capabilityId: 'quote', input: { text: 'q', cost } });
  const refundOf = (call: PaidCall) => call.settlement!.refund!;
  const refundsOf = async (payer: Wallet) =>
    (await ctx.domain.ds.query(
      `SELECT id, amount::text, status, carried_by AS "carriedBy", payout_amount::text AS "payoutAmount" FROM refunds WHERE wallet = $1 ORDER BY created_at`,
      [payer.address.toLowerCase()],
    )) as { id: string; amount: string; status: string; carriedBy: string | null; payoutAmount: string | null }[];

  it('a chain root whose agent fails keeps the platform fee; the rest of the payment is refunded', async () => {
    const payer = newWallet();
    // Root cost 0.011 (0.001 fee + 0.010) plus a 0.05 budget.
    const root = await ctx.get(ExecuteChainRoot).execute({
      agentId,
      capabilityId: 'translate',
      input: { text: 'x', mode: 'fail' },
      async: false,
      payment: await ctx.newPayment(payer, 61_000n),
      clientIp: '10.1.2.3',
      chain: { budget: '0.05' },
    });
    expect(root.execution.status).toBe('failed');
    const [chain] = await ctx.domain.ds.query(`SELECT id FROM chains WHERE root_wallet = $1`, [
      payer.address.toLowerCase(),
    ]);
    const before = await ctx.revenue();
    expect(await ctx.get(FinishChain).execute(chain.id)).toBe(true);
    expect(await ctx.revenue()).toBe(before + 1_000n);
    expect(await refundsOf(payer)).toEqual([expect.objectContaining({ amount: '60000', status: 'pending' })]);
    const [ended] = await ctx.domain.ds.query(`SELECT status FROM chains WHERE id = $1`, [chain.id]);
    expect(ended.status).toBe('failed');
  });

  it('a refund below the dust floor is held (owed, not sent); the next refund above it carries it in one transfer', async () => {
    const payer = newWallet();
    // Dynamic price capped at 0.20: a cost of 0.1999 leaves 0.0001 to refund, below the 0.01 floor.
    const small = await quote(payer, '0.1999');
    expect(refundOf(small)).toMatchObject({ amount: 100n, status: 'held' });
    const second = await quote(payer, '0.1995');
    expect(refundOf(second)).toMatchObject({ amount: 500n, status: 'held' });
    const [a, b] = await refundsOf(payer);
    // Nothing sends a held refund, even a stray job.
    expect(await ctx.get(ProcessRefund).execute(a.id)).toBe('skipped');
    expect(await ctx.get(RefundsService).dueForProcessing()).not.toContain(a.id);
    const big = await quote(payer, '0.05');
    expect(refundOf(big)).toMatchObject({ amount: 150_000n, status: 'pending' });
    const carrier = refundOf(big).id;
    expect(await refundsOf(payer)).toEqual([
      { ...a, carriedBy: carrier },
      { ...b, carriedBy: carrier },
      { id: carrier, amount: '150000', status: 'pending', carriedBy: null, payoutAmount: '150600' },
    ]);
    expect(await ctx.get(ProcessRefund).execute(carrier)).toBe('completed');
    const paid = await refundsOf(payer);
    expect(paid.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
    const hashes = await ctx.domain.ds.query(`SELECT DISTINCT tx_hash FROM refunds WHERE wallet = $1`, [
      payer.address.toLowerCase(),
    ]);
    expect(hashes).toHaveLength(1);
  });

  it('a held refund is sent alone only on request (an admin), never by the worker', async () => {
    const payer = newWallet();
    const id = refundOf(await quote(payer, '0.1990')).id;
    expect(await ctx.get(RefundsService).dueForProcessing()).not.toContain(id);
    expect(await ctx.get(RetryRefund).execute(id)).toMatchObject({
      id,
      amount: 1_000n,
      status: 'pending',
      txHash: null,
    });
    expect(await ctx.get(ProcessRefund).execute(id)).toBe('completed');
    expect((await refundsOf(payer)).map((r) => [r.status, r.payoutAmount])).toEqual([['completed', '1000']]);
  });

  it('a failed refund is sent again when its retry time comes, or at once by an admin; never left failed', async () => {
    const payer = newWallet();
    const [first, second] = [refundOf(await quote(payer, '0.05')).id, refundOf(await quote(payer, '0.06')).id];
    // What the payout sender leaves when a transfer reverted: failed, still owed, with its retry time.
    await ctx.domain.ds.query(
      `UPDATE refunds SET status = 'failed', error = 'transfer 0xabc reverted', retry_at = now() - interval '1 second', attempts = 1 WHERE id = $1`,
      [first],
    );
    await ctx.domain.ds.query(
      `UPDATE refunds SET status = 'failed', error = 'transfer 0xdef reverted', retry_at = now() + interval '1 hour', attempts = 1 WHERE id = $1`,
      [second],
    );
    const due = await ctx.get(RefundsService).dueForProcessing();
    expect(due).toContain(first);
    expect(due).not.toContain(second);
    expect(await ctx.get(ProcessRefund).execute(first)).toBe('completed');

    const retried = await ctx.get(RetryRefund).execute(second);
    expect(retried).toMatchObject({ id: second, amount: 140_000n, status: 'pending', txHash: null });
    expect(await ctx.get(ProcessRefund).execute(second)).toBe('completed');
    await expect(ctx.get(RetryRefund).execute(second)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    expect((await refundsOf(payer)).map((r) => r.status)).toEqual(['completed', 'completed']);
  });
});
