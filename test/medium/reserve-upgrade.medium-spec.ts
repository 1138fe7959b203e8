import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { newId } from '@app/common';
import { GetBalance, PLATFORM_FEE, RecordCharge, splitAgentFee } from '@app/payments';
import { Domain, seedAgent, startDomain } from '../support/medium';

/**
 * Upgrading to 1.2 keeps the withdrawals agents had (issue 53): 1.2's record (matured money from funded
 * payers) starts empty, so without migration ReserveRecordAtUpgrade every agent 1.1 had found established
 * (20 charges from 5 payers other than its wallet, the first 3 days old) had its balance reserved again.
 */
const MIGRATION = 'ReserveRecordAtUpgrade1764310000000';
const FEE = 1_000_000n;
const { earnings: EARNINGS } = splitAgentFee(FEE);

describe('upgrading to 1.2: the reserve of existing agents (medium)', () => {
  let domain: Domain;
  let ds: DataSource;

  beforeAll(async () => {
    domain = await startDomain({ WITHDRAWAL_RESERVE: 'on' });
    ds = domain.ds;
  });
  afterAll(async () => {
    await domain.close();
  });

  /** `perPayer` charges by each of `payers` new wallets (none funded elsewhere), released at once, made `daysAgo` days ago. */
  async function history(agentId: string, payers: number, perPayer: number, daysAgo: number, fee = FEE) {
    for (let p = 0; p < payers; p++) {
      const payer = Wallet.createRandom().address;
      for (let i = 0; i < perPayer; i++) await charge(agentId, payer, fee);
    }
    await ds.query(
      `UPDATE transactions SET created_at = created_at - make_interval(days => $2),
              completed_at = completed_at - make_interval(days => $2) WHERE providing_agent_id = $1`,
      [agentId, daysAgo],
    );
  }

  async function charge(agentId: string, payer: string, fee: bigint): Promise<void> {
    const paymentId = newId('pay');
    await ds.transaction(async (em) => {
      await em.query(
        `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                               signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
         VALUES ($1, 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $2, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
                 $3, $4, 0, 9999999999, '0x', 'h', 'execution', $1, 'settled', '0x', now())`,
        [paymentId, payer.toLowerCase(), `0x${randomBytes(32).toString('hex')}`, (PLATFORM_FEE + fee).toString()],
      );
      await domain.get(RecordCharge).write(em, {
        paymentId,
        payerWallet: payer,
        requestingAgent: payer,
        agentId,
        agentReputation: 90, // instant tier: released to available at once
        capabilityId: 'translate',
        agentFee: fee,
        platformFee: PLATFORM_FEE,
        executionTimeMs: 5,
      });
    });
  }

  async function withdrawable(agentId: string): Promise<{ available: bigint; withdrawable: bigint }> {
    const b = await domain.get(GetBalance).execute(agentId);
    return { available: b.available, withdrawable: b.available - b.reserved };
  }

  /** Reverts the migrations down to and including MIGRATION, newest first: its marks and column stay. */
  async function revertUpgrade(): Promise<void> {
    const names = ds.migrations.map((m) => m.name);
    expect(names).toContain(MIGRATION);
    for (let i = names.indexOf(MIGRATION); i < names.length; i++) await ds.undoLastMigration({ transaction: 'each' });
    expect(await hasColumn()).toBe(true);
  }

  async function hasColumn(): Promise<boolean> {
    const columns = await ds.query(
      `SELECT 1 FROM information_schema.columns WHERE table_name = 'agents' AND column_name = 'reserve_established_at'`,
    );
    return columns.length === 1;
  }

  async function upgrade(): Promise<void> {
    expect(await ds.runMigrations({ transaction: 'each' })).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: MIGRATION })]),
    );
  }

  it("an agent 1.1 had established keeps its whole balance withdrawable; others and agents after it don't", async () => {
    const endpoint = 'http://127.0.0.1:9/';
    // Before the upgrade: rows as 1.1 wrote them (charges, ledger, released holds), 4 days old.
    const established = await seedAgent(domain, { endpoint });
    await history(established, 5, 4, 4); // 20 charges, 5 payers: 1.1's record
    const short = await seedAgent(domain, { endpoint });
    await history(short, 4, 5, 4); // 20 charges but 4 payers: not established in 1.1
    const young = await seedAgent(domain, { endpoint });
    await history(young, 5, 4, 1); // the first charge 1 day old: not established in 1.1
    const free = await seedAgent(domain, { endpoint });
    await history(free, 5, 4, 4, 0n); // 1.1's record of 20 price-0 runs (its known sybil path)...
    await history(free, 1, 20, 0); // ...and then 20 paid charges of today
    const total = 20n * EARNINGS;

    // 1.2's rule alone (no mark): every one of them has its whole balance reserved (the charges are inside the
    // 7-day filing window and no payer is funded). That was the upgrade's regression.
    for (const agent of [established, short, young, free])
      expect(await withdrawable(agent)).toEqual({ available: total, withdrawable: 0n });

    // A database as 1.1 left it: the migrations reverted and the column (which a revert keeps) not there yet.
    await revertUpgrade();
    await ds.query(`ALTER TABLE agents DROP COLUMN reserve_established_at`);
    await upgrade();

    // After the upgrade: the agent 1.1 had established can withdraw all of it, as before.
    expect(await withdrawable(established)).toEqual({ available: total, withdrawable: total });
    // The others fall under 1.2's rule, a record of price-0 runs included (it established nothing real).
    for (const agent of [short, young, free])
      expect(await withdrawable(agent)).toEqual({ available: total, withdrawable: 0n });

    // An agent registered after the upgrade, with the same history, earns 1.2's record: its balance stays reserved.
    const later = await seedAgent(domain, { endpoint });
    await history(later, 5, 4, 4);
    expect(await withdrawable(later)).toEqual({ available: total, withdrawable: 0n });
    // Its earnings free as 1.2 frees them: once past the filing window.
    await ds.query(
      `UPDATE transactions SET completed_at = completed_at - make_interval(secs => $2) WHERE providing_agent_id = $1`,
      [later, domain.config.disputeFilingWindowS],
    );
    expect(await withdrawable(later)).toEqual({ available: total, withdrawable: total });
  });

  it('migrate:revert and a re-run keep the marks and mark no agent registered after the upgrade', async () => {
    const endpoint = 'http://127.0.0.1:9/';
    const marked = async (agentId: string): Promise<boolean> =>
      (await ds.query(`SELECT reserve_established_at FROM agents WHERE id = $1`, [agentId]))[0]
        .reserve_established_at !== null;
    const before = await seedAgent(domain, { endpoint });
    await history(before, 5, 4, 4);
    await revertUpgrade();
    await ds.query(`ALTER TABLE agents DROP COLUMN reserve_established_at`); // as 1.1 left it
    await upgrade();
    expect(await marked(before)).toBe(true);
    // After the real upgrade: an agent that builds 1.1's record cheaply (20 charges of 1 micro-USDC, 5 own wallets)...
    const after = await seedAgent(domain, { endpoint });
    await history(after, 5, 4, 4, 1n);
    // ...gains nothing from a revert and a re-run: 1.2 code still finds its column, and nobody new is marked.
    await revertUpgrade();
    expect(await hasColumn()).toBe(true);
    expect(await marked(before)).toBe(true);
    await upgrade();
    expect(await marked(after)).toBe(false);
    expect(await marked(before)).toBe(true);
    expect((await withdrawable(after)).withdrawable).toBe(0n);
  });
});
