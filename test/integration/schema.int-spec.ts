import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';

/**
 * Entities and migrations agree: on a migrated database, generating a migration from the
 * entities the API loads yields no statement. Also checks that the migrations revert cleanly.
 */
describe('schema (integration)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** Reverts the migrations down to and including `name` (the newest first); answers how many were reverted. */
  async function undoThrough(ds: DataSource, name: string): Promise<number> {
    const names = ds.migrations.map((m) => m.name);
    const count = names.length - names.indexOf(name);
    expect(names).toContain(name);
    for (let i = 0; i < count; i++) await ds.undoLastMigration({ transaction: 'each' });
    return count;
  }

  async function pendingSchemaChanges(ds: DataSource): Promise<string[]> {
    const log = await ds.driver.createSchemaBuilder().log();
    return log.upQueries.map((q) => q.query);
  }

  it('generating a migration from the entities yields nothing', async () => {
    const ds = api.app.get(DataSource);
    // Every table the migrations create has an entity, so none escapes the comparison.
    const tables: { table_name: string }[] = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations' ORDER BY 1`,
    );
    expect(ds.entityMetadatas.map((m) => m.tableName).sort()).toEqual(tables.map((t) => t.table_name));
    expect(tables.length).toBeGreaterThanOrEqual(11);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('never synchronizes: the schema comes from migrations only', () => {
    expect(api.app.get(DataSource).options.synchronize).toBe(false);
  });

  it('reverts every migration and applies them again to the same schema', async () => {
    const ds = api.app.get(DataSource);
    const count = ds.migrations.length;
    for (let i = 0; i < count; i++) await ds.undoLastMigration({ transaction: 'each' });
    const tables = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations'`,
    );
    expect(tables).toEqual([]);
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(count);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('upgrading a running chain whose reservations were in the ledger: they go back to its budget and its row holds what is available', async () => {
    const ds = api.app.get(DataSource);
    const reverted = await undoThrough(ds, 'ChainReservations1763950000000');
    const chain = randomUUID();
    const post = (code: string, from: [string, string], to: [string, string], amount: number) =>
      ds.query(`SELECT ledger_post(gen_random_uuid(), $1, $2, '{}'::jsonb, $3, $4, $5, $6, $7, $8)`, [
        code,
        chain,
        [from[0], to[0]],
        [from[1], to[1]],
        [chain, chain],
        [from[1] === 'world' ? null : 0, 0],
        [null, null],
        [-amount, amount],
      ]);
    await ds.query(
      `INSERT INTO chains (id, root_execution_id, root_agent_id, root_wallet, payment_id, budget, max_depth, status, running, trace_id, expires_at)
       VALUES ($1, 'req_upgrade', $2, '0x${'ab'.repeat(20)}', 'pay_upgrade', 100000, 2, 'running', 2, '${'0'.repeat(32)}', now() + interval '5 minutes')`,
      [chain, randomUUID()],
    );
    for (const [id, parent, depth, reserved] of [
      ['req_upgrade', null, 0, 10_000],
      ['req_upgrade_1', 'req_upgrade', 1, 20_000],
    ] as const) {
      await ds.query(
        `INSERT INTO chain_nodes (execution_id, chain_id, parent_execution_id, agent_id, capability_id, depth, span_id, reserved) VALUES ($1, $2, $3, $4, 'cap', $5, '${'1'.repeat(16)}', $6)`,
        [id, chain, parent, randomUUID(), depth, reserved],
      );
    }
    await post('chain.funded', ['world:chain', 'world'], [`chain:${chain}:budget`, 'chain_budget'], 110_000);
    await post(
      'chain.node.reserved',
      [`chain:${chain}:budget`, 'chain_budget'],
      [`chain:${chain}:inflight`, 'chain_inflight'],
      30_000,
    );
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
    const [row] = await ds.query(
      `SELECT c.available::text, (SELECT balance::text FROM ledger_accounts WHERE code = 'chain:' || c.id || ':budget') AS budget,
              (SELECT balance::text FROM ledger_accounts WHERE code = 'chain:' || c.id || ':inflight') AS inflight
         FROM chains c WHERE id = $1`,
      [chain],
    );
    expect(row).toEqual({ available: '80000', budget: '110000', inflight: '0' });
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...CHAIN_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });

  it("upgrading a database where the platform had advanced disputed earnings: each advance becomes the platform's debt, repaid oldest first", async () => {
    const ds = api.app.get(DataSource);
    const reverted = await undoThrough(ds, 'MarketIntegrity1764010000000');
    const agent = randomUUID();
    // Two disputes advanced 300 and 500 before this version; the agent has repaid 400 since (owed -400).
    for (const [id, advanced, at] of [
      ['dsp_upgrade_1', 300, '2026-11-01'],
      ['dsp_upgrade_2', 500, '2026-11-02'],
    ] as const) {
      await ds.query(
        `INSERT INTO disputes (id, transaction_id, client_wallet, agent_id, status, reason, frozen_amount, advanced_amount, frozen_from, platform_evidence, created_at, respond_by)
         VALUES ($1, $1, '0x${'ab'.repeat(20)}', $2, 'pending', 'r', $3, $3, 'available', '{}', $4, $4::timestamptz + interval '2 days')`,
        [id, agent, advanced, at],
      );
    }
    await ds.query(`SELECT ledger_post(gen_random_uuid(), 'test.owed', $1, '{}'::jsonb, $2, $3, $4, $5, $6, $7)`, [
      agent,
      [`agent:${agent}:owed`, `agent:${agent}:frozen`],
      ['owed', 'frozen'],
      [agent, agent],
      [null, 0],
      [0, null],
      [-400, 400],
    ]);
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
    const debts = await ds.query(
      `SELECT dispute_id, creditor_wallet, amount::int, repaid::int FROM agent_debts WHERE agent_id = $1 ORDER BY created_at`,
      [agent],
    );
    expect(debts).toEqual([
      { dispute_id: 'dsp_upgrade_1', creditor_wallet: null, amount: 300, repaid: 300 },
      { dispute_id: 'dsp_upgrade_2', creditor_wallet: null, amount: 500, repaid: 100 },
    ]);
    const i11 = PAYMENT_CHECKS.find((c) => c.id === 'I11')!;
    expect((await i11.run(ds.manager)).filter((v) => v.includes(agent))).toEqual([]);
  });

  it('upgrading a database with agents and charges: the rollups start from what is there, and the triggers keep them', async () => {
    const ds = api.app.get(DataSource);
    const reverted = await undoThrough(ds, 'Reputation1763960000000');
    const [a, b] = [randomUUID(), randomUUID()];
    const agent = (id: string, status: string) =>
      ds.query(
        `INSERT INTO agents (id, wallet, name, endpoints, chain_settings, status) VALUES ($1, '0x${'cd'.repeat(20)}', 'up', '{}', '{}', $2)`,
        [id, status],
      );
    await agent(a, 'active');
    await agent(b, 'inactive');
    const charge = (id: string, agentId: string, fee: number, ms: number) =>
      ds.query(
        `INSERT INTO transactions (id, requesting_agent, payer_wallet, providing_agent_id, capability_id, gross_amount, platform_fee, agent_fee, platform_cut, agent_earnings, execution_time_ms)
         VALUES ($1, 'c', '0x${'ef'.repeat(20)}', $2, 'cap', $3 + 1000, 1000, $3, $3 / 20, $3 - $3 / 20, $4)`,
        [id, agentId, fee, ms],
      );
    await charge('tx_up_1', a, 20_000, 7);
    await charge('tx_up_2', a, 40_000, 7);
    await charge('tx_up_3', b, 20_000, 3000);
    const before = (await ds.query(`SELECT count(*)::int AS n FROM agents`))[0].n;
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
    const stats = async (id: string) =>
      (
        await ds.query(
          `SELECT completed::int, gross::int, platform_fees::int AS fees, net::int, time_sum_ms::int AS t FROM agent_stats WHERE agent_id = $1`,
          [id],
        )
      )[0];
    expect(await stats(a)).toEqual({ completed: 2, gross: 62_000, fees: 2_000 + 3_000, net: 57_000, t: 14 });
    expect(
      await ds.query(
        `SELECT bucket_ms, n::int FROM agent_latency WHERE agent_id = ANY($1::uuid[]) ORDER BY bucket_ms`,
        [[a, b]],
      ),
    ).toEqual([
      { bucket_ms: 7, n: 2 },
      { bucket_ms: 3000 - (3000 % 4), n: 1 },
    ]);
    const platform = async () =>
      (
        await ds.query(
          `SELECT sum(agents)::int AS agents, sum(active_agents)::int AS active, sum(transactions)::int AS txs FROM platform_stats`,
        )
      )[0];
    const totals = await platform();
    expect(totals.agents).toBe(before);
    expect(totals).toEqual({
      agents: before,
      active: (await ds.query(`SELECT count(*)::int AS n FROM agents WHERE status = 'active'`))[0].n,
      txs: (await ds.query(`SELECT count(*)::int AS n FROM transactions`))[0].n,
    });
    // From now on the triggers keep them: a status change, a charge, a removal.
    await ds.query(`UPDATE agents SET status = 'active' WHERE id = $1`, [b]);
    await charge('tx_up_4', b, 1_000, 1);
    await ds.query(`DELETE FROM agents WHERE id = $1`, [a]);
    expect(await platform()).toEqual({ agents: before - 1, active: totals.active, txs: totals.txs + 1 });
    expect(await stats(b)).toMatchObject({ completed: 2, gross: 23_000 });
  });

  it('upgrading to Disputes: ledger_post takes the new lock order, split outcomes already recorded are counted, and it reverts', async () => {
    const ds = api.app.get(DataSource);
    const def = async () => (await ds.query(`SELECT pg_get_functiondef('ledger_post'::regproc) AS d`))[0].d as string;
    expect(await def()).toContain(`ORDER BY (kind NOT IN ('world', 'revenue', 'escrow')), id FOR UPDATE`);
    const reverted = await undoThrough(ds, 'Disputes1763970000000');
    expect(await def()).not.toContain('kind NOT IN');
    const [{ agent }] = await ds.query(`SELECT id AS agent FROM agents LIMIT 1`);
    await ds.query(`SELECT reputation_apply($1, 'dispute.split', 0, 'dsp_before_upgrade')`, [agent]);
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
    expect((await def()).split(`ORDER BY (kind NOT IN ('world', 'revenue', 'escrow')), id FOR UPDATE`)).toHaveLength(3);
    expect((await ds.query(`SELECT disputes_split::int AS n FROM agent_stats WHERE agent_id = $1`, [agent]))[0].n).toBe(
      1,
    );
  });

  it('upgrading to LedgerShards: the balance of each hot account splits over its 16 shards, no total changes, and it reverts', async () => {
    const ds = api.app.get(DataSource);
    const rows = async (kind: string) =>
      Object.fromEntries(
        (
          await ds.query(`SELECT code, balance::text AS b FROM ledger_accounts WHERE kind = $1 AND balance <> 0`, [
            kind,
          ])
        ).map((r: { code: string; b: string }) => [r.code, BigInt(r.b)]),
      ) as Record<string, bigint>;
    const reverted = await undoThrough(ds, 'LedgerShards1764140000000');
    // Before the shards: one row each, as the code before this migration posted.
    await ds.query(`SELECT ledger_post(gen_random_uuid(), 'test.fee', $1, '{}'::jsonb, $2, $3, $4, $5, $6, $7)`, [
      randomUUID(),
      ['world:chain', 'platform:revenue'],
      ['world', 'revenue'],
      [null, null],
      [null, 0],
      [null, null],
      [-1_000_037, 1_000_037],
    ]);
    const revenue = (await rows('revenue'))['platform:revenue'];
    const world = (await rows('world'))['world:chain'];
    expect(Object.keys(await rows('revenue'))).toEqual(['platform:revenue']);

    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
    for (const [kind, code, total] of [
      ['revenue', 'platform:revenue', revenue],
      ['world', 'world:chain', world],
    ] as const) {
      const shards = await rows(kind);
      const q = total / 16n;
      expect(shards).toEqual(
        Object.fromEntries(
          Array.from({ length: 16 }, (_, i) => [`${code}:${i}`, q + (i === 0 ? total - q * 16n : 0n)]),
        ),
      );
    }
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);

    await undoThrough(ds, 'LedgerShards1764140000000');
    expect(await rows('revenue')).toEqual({ 'platform:revenue': revenue });
    expect(await rows('world')).toEqual({ 'world:chain': world });
    expect((await runInvariantChecks(ds.manager, LEDGER_CHECKS)).ok).toBe(true);
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(reverted);
  });
});
