import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { WalletAuthContext } from '@app/auth';
import { AppException, formatMicros, newId } from '@app/common';
import { DISPUTE_CHECKS, FileDispute, ResolveDispute } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import {
  PAYMENT_CHECKS,
  PLATFORM_FEE,
  ProcessWithdrawal,
  RecordCharge,
  ReleaseHold,
  RequestWithdrawal,
  splitAgentFee,
  WITHDRAWAL_FEE,
} from '@app/payments';
import { Domain, seedAgent, startDomain } from '../support/medium';
import { signAuth } from '../support/wallets';

/**
 * Money outcomes of payments' use cases against real Postgres and Redis, no HTTP: holds by tier and
 * their release, a withdrawal's fee, net amount and rolling reserve, what a split dispute refunds.
 * The rolling reserve is on here (the other medium specs run without it).
 */
describe('payments: money outcomes (medium)', () => {
  let domain: Domain;

  beforeAll(async () => {
    domain = await startDomain({ WITHDRAWAL_RESERVE: 'on' });
  });
  afterAll(async () => {
    await domain.close();
  });

  /** A charge of `agentFee` to `agentId`, paid by `payer`, the hold set by `reputation`. */
  async function charge(agentId: string, payer: Wallet, agentFee: bigint, reputation: number) {
    const paymentId = newId('pay');
    return domain.ds.transaction(async (em) => {
      await em.query(
        `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                               signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
         VALUES ($1, 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $2, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
                 $3, $4, 0, 9999999999, '0x', 'h', 'execution', $1, 'settled', '0x', now())`,
        [
          paymentId,
          payer.address.toLowerCase(),
          `0x${randomBytes(32).toString('hex')}`,
          (PLATFORM_FEE + agentFee).toString(),
        ],
      );
      return domain.get(RecordCharge).write(em, {
        paymentId,
        payerWallet: payer.address,
        requestingAgent: payer.address,
        agentId,
        agentReputation: reputation,
        capabilityId: 'translate',
        agentFee,
        platformFee: PLATFORM_FEE,
        executionTimeMs: 7,
      });
    });
  }

  async function accounts(agentId: string): Promise<Record<string, string>> {
    const rows: { code: string; balance: string }[] = await domain.ds.query(
      `SELECT code, balance::text FROM ledger_accounts WHERE owner_id = $1 AND balance <> 0 ORDER BY code`,
      [agentId],
    );
    return Object.fromEntries(rows.map((r) => [r.code.split(':').pop()!, r.balance]));
  }

  async function assertInvariants(): Promise<void> {
    const report = await runInvariantChecks(domain.ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...DISPUTE_CHECKS,
    ]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  }

  function walletAuth(agentId: string): WalletAuthContext {
    return {
      agentId,
      wallet: '0x0000000000000000000000000000000000000001',
      timestampMs: Date.now(),
      forChange: true,
      unbound: false,
      messageKey: `${agentId}:${randomUUID()}`,
      expiresAt: new Date(Date.now() + 300_000),
    };
  }

  it('holds earnings by tier: instant at 60+, else Standard, At Risk, Critical; a due hold is released once', async () => {
    const agentId = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' });
    const payer = new Wallet(Wallet.createRandom().privateKey);
    const fee = 10_000n;
    const { earnings } = splitAgentFee(fee);
    const c = domain.config;
    const tiers: [number, number][] = [
      [90, 0],
      [60, 0],
      [50, c.escrowHoldStandardS],
      [30, c.escrowHoldAtRiskS],
      [10, c.escrowHoldCriticalS],
    ];
    const holds = [];
    for (const [reputation, seconds] of tiers) {
      const { transaction, hold } = await charge(agentId, payer, fee, reputation);
      expect(hold.releaseAt.getTime() - transaction.completedAt!.getTime()).toBe(seconds * 1000);
      expect(hold.status).toBe(seconds === 0 ? 'released' : 'held');
      holds.push(hold);
    }
    expect(await accounts(agentId)).toEqual({
      available: (2n * earnings).toString(),
      escrow: (3n * earnings).toString(),
    });

    const standard = holds[2];
    expect(await domain.get(ReleaseHold).execute(standard.id)).toBe(false); // not due yet
    await domain.ds.query(`UPDATE escrow_holds SET release_at = now() - interval '1 second' WHERE id = $1`, [
      standard.id,
    ]);
    const [first, second] = await Promise.all([
      domain.get(ReleaseHold).execute(standard.id),
      domain.get(ReleaseHold).execute(standard.id),
    ]);
    expect([first, second].filter(Boolean)).toEqual([true]);
    expect(await accounts(agentId)).toEqual({
      available: (3n * earnings).toString(),
      escrow: (2n * earnings).toString(),
    });
    await assertInvariants();
  });

  it('a withdrawal takes its fee from the amount and sends the net; the rolling reserve keeps earnings still disputable', async () => {
    const agentId = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' });
    const payer = new Wallet(Wallet.createRandom().privateKey);
    const fee = 3_000_000n;
    const { earnings } = splitAgentFee(fee); // 2.85 USDC, released at once (instant tier)
    const { transaction } = await charge(agentId, payer, fee, 90);
    const amount = 2_000_000n;

    // A new agent without an established record: its earnings stay reserved while the charge can be disputed.
    const refused = await domain
      .get(RequestWithdrawal)
      .execute({ agentId, auth: walletAuth(agentId), amount, destinationWallet: payer.address })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppException);
    expect((refused as AppException).code).toBe('INSUFFICIENT_BALANCE');
    expect((refused as AppException).details).toMatchObject({
      available: '2.850000',
      reserved: '2.850000',
      withdrawable: '0.000000',
    });
    expect(await accounts(agentId)).toEqual({ available: earnings.toString() });

    // Once the filing window has closed, nothing is reserved.
    await domain.ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2::int + 1) WHERE id = $1`,
      [transaction.id, domain.config.disputeFilingWindowS],
    );
    const w = await domain
      .get(RequestWithdrawal)
      .execute({ agentId, auth: walletAuth(agentId), amount, destinationWallet: payer.address });
    expect({ status: w.status, amount: w.amount, fee: w.fee, net: w.netAmount }).toEqual({
      status: 'pending',
      amount,
      fee: WITHDRAWAL_FEE,
      net: amount - WITHDRAWAL_FEE,
    });
    expect(await accounts(agentId)).toEqual({
      available: (earnings - amount).toString(),
      withdrawing: amount.toString(),
    });
    const revenue = async () =>
      BigInt(
        (await domain.ds.query(`SELECT sum(balance)::text AS b FROM ledger_accounts WHERE kind = 'revenue'`))[0].b,
      );
    const revenueBefore = await revenue();
    expect(await domain.get(ProcessWithdrawal).execute(w.id)).toBe('completed');
    expect(await domain.get(ProcessWithdrawal).execute(w.id)).toBe('skipped');
    expect(await accounts(agentId)).toEqual({ available: (earnings - amount).toString() });
    expect((await revenue()) - revenueBefore).toBe(WITHDRAWAL_FEE);
    await assertInvariants();
  });

  it('a split dispute refunds half of the agent fee to the payer and releases the rest of the frozen earnings', async () => {
    const agentId = await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' });
    const payer = new Wallet(Wallet.createRandom().privateKey);
    const fee = 100_000n; // half of it is above the dust floor: the refund is sent, not held
    const { transaction } = await charge(agentId, payer, fee, 50); // held in escrow (Standard)
    const signature = await signAuth(payer, transaction.id, Date.now());
    const dispute = await domain.get(FileDispute).execute({
      transactionId: transaction.id,
      reason: 'half done',
      evidence: null,
      proof: { payment: null, wallet: payer.address, signature },
    });
    expect(await accounts(agentId)).toEqual({ frozen: transaction.agentEarnings.toString() });

    const resolved = await domain
      .get(ResolveDispute)
      .execute({ disputeId: dispute.id, outcome: 'split', note: null, resolvedBy: 'admin' });
    const half = splitAgentFee(fee / 2n);
    expect(resolved!.resolution).toMatchObject({
      outcome: 'split',
      refundAmount: formatMicros(fee / 2n),
      releasedAmount: formatMicros(transaction.agentEarnings - half.earnings),
    });
    const [refund] = await domain.ds.query(
      `SELECT id, wallet, amount::text, reason, status FROM refunds WHERE transaction_id = $1`,
      [transaction.id],
    );
    expect(refund).toEqual({
      id: `rfd_${dispute.id.slice('dsp_'.length)}`,
      wallet: payer.address.toLowerCase(),
      amount: (half.cut + half.earnings).toString(),
      reason: 'dispute',
      status: 'pending',
    });
    expect(await accounts(agentId)).toEqual({ available: (transaction.agentEarnings - half.earnings).toString() });
    const [tx] = await domain.ds.query(`SELECT status FROM transactions WHERE id = $1`, [transaction.id]);
    expect(tx.status).toBe('completed');
    await assertInvariants();
  });
});
