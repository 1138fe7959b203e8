import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';

/**
 * G15: the worker checks the money invariants on a schedule. A corrupted row in a test database
 * (a balance changed behind the journal's back) is found: payouts pause (a withdrawal requested
 * meanwhile is not sent), `/api/v1/health` reports the invariant, and the worker's log names it.
 * Repaired, the next check resumes payouts and the withdrawal completes.
 */
describe('faults: the scheduled invariant check pauses payouts (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let worker: RunningProcess | undefined;

  beforeAll(async () => {
    api = await startApi({
      INVARIANT_CHECK_INTERVAL_MS: '300',
      MAINTENANCE_INTERVAL_MS: '300',
      WORKER_HEARTBEAT_MS: '200',
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await api.close();
  });

  const health = () => api.request('GET', '/api/v1/health');
  const checkedAt = async () =>
    (await ds.query(`SELECT checked_at FROM invariant_status`))[0]?.checked_at as Date | undefined;

  it('a corrupted balance: payouts paused, health 503 naming it, the log names it; repaired: payouts resume', async () => {
    const wallet = newWallet();
    const agentId = (await registerAgent(api, wallet)).body.data.id;
    await seedCharge(api.app, { agentId, agentFee: 3_000_000n, reputation: 90 });
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn' });
    await waitFor(async () => (await health()).status === 200 && (await checkedAt()), 'a passing check');

    // A balance changed behind the journal's back (I1 conservation, I3 fold).
    await ds.query(`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = 'platform:revenue:0'`);
    const down = await waitFor(async () => {
      const res = await health();
      return res.status === 503 ? res : undefined;
    }, 'health to report the violation');
    expect(down.body.error.details.health.error.invariants).toMatchObject({
      status: 'down',
      payouts: 'paused',
      failed: expect.arrayContaining(['I1', 'I3']),
    });
    expect(JSON.stringify(down.body)).not.toContain('platform:revenue'); // the ids only, no balances
    await waitFor(async () => /invariant I1 violated/.test(worker!.output()), 'the log line naming I1');

    const wd = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.000000', destinationWallet: newWallet().address },
      headers: await walletHeaders(wallet, agentId, 'POST /api/v1/payments/withdraw'),
    });
    expect(wd.status).toBe(201);
    const withdrawal = () =>
      ds.query(`SELECT status, attempts FROM withdrawals WHERE id = $1`, [wd.body.data.withdrawalId]).then((r) => r[0]);
    // Two more checks and sweeps go by: the withdrawal is never claimed.
    const seen = await checkedAt();
    await waitFor(
      async () => ((await checkedAt())!.getTime() > seen!.getTime() + 600 ? true : undefined),
      'two more checks',
    );
    expect(await withdrawal()).toEqual({ status: 'pending', attempts: 0 });

    await ds.query(`UPDATE ledger_accounts SET balance = balance - 1 WHERE code = 'platform:revenue:0'`);
    await waitFor(async () => (await health()).status === 200, 'health to recover');
    await waitFor(async () => (await withdrawal()).status === 'completed', 'the paused withdrawal to complete');
    expect(worker.output()).toMatch(/payouts resume/);
  });
});
