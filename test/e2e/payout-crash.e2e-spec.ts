import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { registerAgent, REGISTRATION_FEE_MICROS } from '../support/factories';
import { seedCharge } from '../support/money';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';
import { Wallet } from 'ethers';
import { prng } from '../support/prng';

const NET = 900_000n; // a 1.00 withdrawal less its 0.10 fee

/**
 * Payouts (withdrawals) sent by a worker process that is killed with SIGKILL: at the two fault
 * points of the chain sender (after the signed transfer is persisted and before it is broadcast;
 * after the broadcast and before the receipt), and at random moments during 100 withdrawals (G3).
 * Each payout lands exactly once: the destination holds exactly the net amount, one transfer.
 */
describe('payouts survive a worker killed with SIGKILL (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;
  let agent: { id: string; wallet: Wallet };
  let workerEnv: Record<string, string>;
  let worker: RunningProcess | undefined;
  let stamp = Date.now();

  beforeAll(async () => {
    chain = await startChain();
    api = await startApi({ ...evmEnv(chain), OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    workerEnv = {
      ...api.env,
      PAYOUT_CLAIM_MS: '1000',
      MAINTENANCE_INTERVAL_MS: '300',
      EVM_RESEND_AFTER_MS: '500',
      LOG_LEVEL: 'info',
    };
    const wallet = newWallet();
    await chain.mint(wallet.address, REGISTRATION_FEE_MICROS);
    const res = await registerAgent(api, wallet, {}, { asset: chain.usdcAddress });
    expect(res.status).toBe(201);
    agent = { id: res.body.data.id, wallet };
    await seedCharge(api.app, { agentId: agent.id, agentFee: 200_000_000n, reputation: 90 }); // 190.00 available at once
    await chain.mint(chain.platform.address, 200_000_000n); // what the hot wallet pays out
  }, 60_000);
  afterAll(async () => {
    worker?.child.kill('SIGKILL');
    await api?.close();
    await chain?.stop();
  });

  async function withdraw(): Promise<{ id: string; dest: string }> {
    const dest = newWallet().address;
    const res = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: agent.id, amount: '1.00', destinationWallet: dest },
      headers: await walletHeaders(agent.wallet, agent.id, 'POST /api/v1/payments/withdraw', ++stamp),
    });
    expect(res.status).toBe(201);
    return { id: res.body.data.withdrawalId, dest };
  }

  const startWorker = (env: Record<string, string> = {}) =>
    (worker = startProcess(builtApp('worker'), { ...workerEnv, ...env }));
  const status = async (id: string) =>
    (await ds.query(`SELECT status, chain_tx_id FROM withdrawals WHERE id = $1`, [id]))[0] as {
      status: string;
      chain_tx_id: string | null;
    };
  const sent = () => chain.provider.getTransactionCount(chain.platform.address, 'latest');

  for (const point of ['chain.after-persist', 'chain.after-broadcast']) {
    it(`killed at ${point}: the next worker decides the persisted transfer from the chain; it lands once`, async () => {
      const before = await sent();
      const w = await withdraw();
      const doomed = startWorker({ FAULT_KILL_AT: point });
      expect(await doomed.exited).toBeNull(); // killed by a signal, not exited
      const row = await status(w.id);
      expect(row.status).toBe('processing');
      const [tx] = await ds.query(`SELECT status, tx_hash FROM chain_txs WHERE id = $1`, [row.chain_tx_id]);
      expect(tx.status).toBe('signed'); // persisted before it went out
      if (point === 'chain.after-persist') expect(await chain.balanceOf(w.dest)).toBe(0n);

      startWorker();
      await waitFor(async () => (await status(w.id)).status === 'completed', 'the withdrawal to complete', 20_000);
      worker!.child.kill('SIGKILL');
      expect(await chain.balanceOf(w.dest)).toBe(NET);
      expect(await sent()).toBe(before + 1); // one transaction for it, never a second
      const [done] = await ds.query(
        `SELECT w.tx_hash, c.status, c.tx_hash AS chain_hash FROM withdrawals w JOIN chain_txs c ON c.id = w.chain_tx_id WHERE w.id = $1`,
        [w.id],
      );
      expect(done).toEqual({ tx_hash: tx.tx_hash, status: 'mined', chain_hash: tx.tx_hash });
    }, 60_000);
  }

  it('G3: 100 withdrawals with the worker killed (SIGKILL) at random moments ten times: 100 completed, 100 transfers, none doubled', async () => {
    const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 2 ** 31));
    process.stdout.write(`G3 kill schedule seed: ${seed} (FC_SEED=${seed} replays it)\n`);
    const random = prng(seed);
    const before = await sent();
    const all: { id: string; dest: string }[] = [];
    for (let i = 0; i < 100; i++) all.push(await withdraw());
    let kills = 0;
    while (kills < 10) {
      const w = startWorker();
      await waitFor(async () => /agora worker started/.test(w.output()), 'the worker to start', 20_000);
      await new Promise((r) => setTimeout(r, 30 + random() * 600));
      w.child.kill('SIGKILL');
      await w.exited;
      kills++;
    }
    const finished = async () =>
      (
        await ds.query(
          `SELECT count(*)::int AS n FROM withdrawals WHERE id = ANY($1) AND status IN ('completed', 'failed')`,
          [all.map((w) => w.id)],
        )
      )[0].n;
    const partial = await finished();
    startWorker();
    await waitFor(async () => (await finished()) === 100, 'every withdrawal to finish', 90_000);
    worker!.child.kill('SIGKILL');
    process.stdout.write(`G3: ${partial} of 100 finished during the ${kills} killed workers\n`);

    const rows: { status: string }[] = await ds.query(`SELECT status FROM withdrawals WHERE id = ANY($1)`, [
      all.map((w) => w.id),
    ]);
    expect(rows.map((r) => r.status)).toEqual(Array(100).fill('completed'));
    for (const w of all) expect(await chain.balanceOf(w.dest)).toBe(NET); // each paid exactly once
    const [txs] = await ds.query(
      `SELECT count(*) FILTER (WHERE c.status = 'mined')::int AS mined, count(DISTINCT w.chain_tx_id)::int AS bound
         FROM withdrawals w JOIN chain_txs c ON c.id = w.chain_tx_id WHERE w.id = ANY($1)`,
      [all.map((w) => w.id)],
    );
    expect(txs).toEqual({ mined: 100, bound: 100 });
    expect(await sent()).toBe(before + 100); // exactly 100 transactions left the hot wallet
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
    const check = startProcess(builtApp('ops'), { DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent' }, [
      'ledger:check',
    ]);
    expect(await check.exited).toBe(0);
  }, 240_000);
});
