import { Wallet } from 'ethers';
import { DISPUTE_CHECKS, FileDispute, ResolveDispute } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, PLATFORM_FEE, ReleaseHold } from '@app/payments';
import { Domain } from '../support/medium';
import { MoneyContext } from '../support/money-context';
import { signAuth } from '../support/wallets';

const AGENT_FEE = 10_000n;
const EARNINGS = 9_500n;
const RACES = 50;

/**
 * G2, release versus freeze: a held escrow whose release is due and a dispute of its transaction,
 * started together, 50 times. Whichever wins, each ends in one consistent state: frozen from
 * escrow (the hold never released), or released first and then frozen from available, never both
 * and never neither; the ledger's invariants and the disputes' hold throughout.
 */
describe('disputes: release versus freeze (medium)', () => {
  let ctx: MoneyContext;
  let domain: Domain;

  beforeAll(async () => {
    // The spec's reputation deltas (the weighted model's have their tests in reputation-sybil).
    ctx = await MoneyContext.start({ DATABASE_POOL_SIZE: '20', REPUTATION_MODEL: 'spec' });
    domain = ctx.domain;
  });
  afterAll(async () => {
    await ctx.close();
  });

  /** A paid execute of `agentId` by `payer`, held in escrow at the agent's score (Standard tier at 50), its release already due. */
  async function heldCharge(agentId: string, payer: Wallet): Promise<{ transactionId: string; holdId: string }> {
    const { transactionId } = await ctx.newCharge(agentId, { payer, agentFee: AGENT_FEE });
    await domain.ds.query(
      `UPDATE escrow_holds SET release_at = now() - interval '1 second' WHERE transaction_id = $1`,
      [transactionId],
    );
    const [hold] = await domain.ds.query(`SELECT id FROM escrow_holds WHERE transaction_id = $1`, [transactionId]);
    return { transactionId, holdId: hold.id };
  }

  /** A release and a filing of one hold, the release started `delayMs` later. */
  async function race(
    agentId: string,
    payer: Wallet,
    c: { transactionId: string; holdId: string },
    delayMs: number,
  ): Promise<boolean> {
    const signature = await signAuth(payer, c.transactionId, Date.now() + Math.floor(Math.random() * 1000));
    const [released] = await Promise.all([
      new Promise<boolean>((resolve, reject) =>
        setTimeout(() => domain.get(ReleaseHold).execute(c.holdId).then(resolve, reject), delayMs),
      ),
      domain.get(FileDispute).execute({
        transactionId: c.transactionId,
        reason: 'race',
        evidence: null,
        proof: { payment: null, wallet: payer.address, signature },
      }),
    ]);
    return released;
  }

  /** Each hold ended frozen from escrow (never released) or released and then frozen from available; all the money is frozen; invariants hold. */
  async function assertConsistent(agentId: string, releasedCalls: boolean[], label: string): Promise<void> {
    const rows: { status: string; frozenFrom: string; released: boolean }[] = await domain.ds.query(
      `SELECT h.status, d.frozen_from AS "frozenFrom", (SELECT count(*) FROM ledger_transactions t WHERE t.code = 'escrow.released' AND t.ref_id = h.id) = 1 AS released
         FROM escrow_holds h JOIN disputes d ON d.transaction_id = h.transaction_id WHERE h.agent_id = $1`,
      [agentId],
    );
    expect(rows).toHaveLength(RACES);
    for (const r of rows) {
      expect([
        { status: 'frozen', frozenFrom: 'escrow', released: false },
        { status: 'released', frozenFrom: 'available', released: true },
      ]).toContainEqual(r);
    }
    // The release call answers true exactly for the holds it released.
    expect(releasedCalls.filter(Boolean).length).toBe(rows.filter((r) => r.released).length);
    const byEscrow = rows.filter((r) => r.frozenFrom === 'escrow').length;
    process.stdout.write(
      `release vs freeze (${label}): ${byEscrow} frozen from escrow, ${RACES - byEscrow} released first then frozen from available\n`,
    );
    const money = await domain.ds.query(
      `SELECT code, balance::text FROM ledger_accounts WHERE owner_id = $1 AND balance <> 0 ORDER BY code`,
      [agentId],
    );
    expect(money).toEqual([{ code: `agent:${agentId}:frozen`, balance: (EARNINGS * BigInt(RACES)).toString() }]);
    const report = await runInvariantChecks(domain.ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...DISPUTE_CHECKS,
    ]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  }

  it(`${RACES} races one at a time, the release started 0-45 ms after the filing: either order ends consistent`, async () => {
    const agentId = (await ctx.newAgent({ reputation: 50 })).id;
    const payer = new Wallet(Wallet.createRandom().privateKey);
    const released: boolean[] = [];
    for (let i = 0; i < RACES; i++)
      released.push(await race(agentId, payer, await heldCharge(agentId, payer), (i % 10) * 5));
    await assertConsistent(agentId, released, 'one at a time');
  });

  it(`${RACES} races at once on one agent (its accounts contended by every release and filing): no deadlock, each ends consistent`, async () => {
    const agentId = (await ctx.newAgent({ reputation: 50 })).id;
    const payer = new Wallet(Wallet.createRandom().privateKey);
    const charges = [];
    for (let i = 0; i < RACES; i++) charges.push(await heldCharge(agentId, payer));
    const released = await Promise.all(charges.map((c, i) => race(agentId, payer, c, (i % 10) * 5)));
    await assertConsistent(agentId, released, 'all at once');
  });

  it('charges released into available while refunds of resolved disputes take revenue, on 4 agents at once: no deadlock (lock order), money exact', async () => {
    const payer = new Wallet(Wallet.createRandom().privateKey);
    // At 90 (instant tier) each charge is released into available inside its own transaction.
    const agents = await Promise.all(
      Array.from({ length: 4 }, async () => (await ctx.newAgent({ reputation: 90 })).id),
    );
    const disputes: string[] = [];
    for (const agentId of agents) {
      for (let i = 0; i < 8; i++) {
        const c = await heldCharge(agentId, payer);
        const signature = await signAuth(payer, c.transactionId, Date.now() + i);
        disputes.push(
          (
            await domain.get(FileDispute).execute({
              transactionId: c.transactionId,
              reason: 'lock order',
              evidence: null,
              proof: { payment: null, wallet: payer.address, signature },
            })
          ).id,
        );
      }
    }
    // The filings cost the agents reputation and each loss costs 5 more (the spec's deltas): from 100, the 8
    // losses during the race leave each agent at 60 or above, so every new charge is released at once (instant tier).
    await domain.ds.query(`UPDATE agents SET reputation_score = 100 WHERE id = ANY($1)`, [agents]);
    const revenueBefore = BigInt(
      (await domain.ds.query(`SELECT sum(balance)::text AS b FROM ledger_accounts WHERE kind = 'revenue'`))[0].b,
    );
    await Promise.all([
      ...disputes.map((id) =>
        domain.get(ResolveDispute).execute({ disputeId: id, outcome: 'client_wins', note: null, resolvedBy: 'admin' }),
      ),
      ...agents.flatMap((agentId) => Array.from({ length: 8 }, () => heldCharge(agentId, payer))),
    ]);
    for (const agentId of agents) {
      const money = await domain.ds.query(
        `SELECT code, balance::text FROM ledger_accounts WHERE owner_id = $1 AND balance <> 0 ORDER BY code`,
        [agentId],
      );
      expect(money).toEqual([{ code: `agent:${agentId}:available`, balance: (EARNINGS * 8n).toString() }]);
    }
    const revenueAfter = BigInt(
      (await domain.ds.query(`SELECT sum(balance)::text AS b FROM ledger_accounts WHERE kind = 'revenue'`))[0].b,
    );
    // 32 refunds take back 32 cuts; 32 new charges bring 32 platform fees and cuts.
    expect(revenueAfter - revenueBefore).toBe(
      32n * (PLATFORM_FEE + (AGENT_FEE - EARNINGS)) - 32n * (AGENT_FEE - EARNINGS),
    );
    const report = await runInvariantChecks(domain.ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...DISPUTE_CHECKS,
    ]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  });
});
