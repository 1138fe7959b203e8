import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent, orchestrateCapability } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/** The worker ends chains: once the root has ended and nothing runs, the final status, and the unspent budget refunded to the root wallet (paid). */
describe('chains ended by the worker (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let orchestrator: RunningOrchestrator;
  let worker: RunningProcess | undefined;
  let translatorId: string;
  let orchestratorId: string;

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '300',
      // A chain stays open while its root caller's token is valid: a short one, so they end soon.
      CHAIN_TOKEN_TTL_S: '1',
    });
    ds = api.app.get(DataSource);
    orchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
    translatorId = (await registerAgent(api, newWallet(), { endpoints: { execution: translator.url } })).body.data.id;
    orchestratorId = (
      await registerAgent(api, newWallet(), {
        endpoints: { execution: orchestrator.url },
        capabilities: [orchestrateCapability()],
      })
    ).body.data.id;
    orchestrator.serve(orchestratorId);
  });
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await orchestrator.stop();
    await api.close();
    await translator.stop();
  });

  const openChain = async (budget: string, calls: unknown[]) => {
    const payer = newWallet();
    const pay = await x402Header(payer, {
      amount: 21_000n + BigInt(Math.round(Number(budget) * 1e6)),
      payTo: api.config.platformWallet,
    });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: { calls }, chain: { budget } },
      headers: { [pay.name]: pay.value },
    });
    expect(res.status).toBe(200);
    return { chainId: res.body.data.chain.chainId as string, payer };
  };
  const chainOf = async (id: string) => (await api.request('GET', `/api/v1/chains/${id}`)).body.data;

  it('finishes chains and pays their refunds; a chain whose job was lost (no worker) is swept up when one starts', async () => {
    // Opened while no worker runs: its chain.finish job waits in Redis; then Redis loses it.
    const early = await openChain('0.50', [
      { targetAgentId: translatorId, capabilityId: 'translate', input: { text: 'early' } },
    ]);
    const { default: Redis } = await import('ioredis');
    const redis = new Redis(api.config.redisUrl);
    const queued = await redis.keys(`${api.config.queuePrefix}:*`);
    expect(queued.length).toBeGreaterThan(0);
    await redis.del(...queued);
    await redis.quit();
    worker = startProcess(builtApp('worker'), api.env);
    const late = await openChain('2.00', [
      { targetAgentId: translatorId, capabilityId: 'translate', input: { text: 'late' } },
    ]);
    for (const [{ chainId, payer }, budget] of [
      [early, 500_000n],
      [late, 2_000_000n],
    ] as const) {
      const chain = await waitFor(async () => {
        const c = await chainOf(chainId);
        return c.status === 'completed' && c.refund ? c : null;
      }, `chain ${chainId} to end`);
      expect(chain.refund.amount).toBe((Number(budget - 11_000n) / 1e6).toFixed(6));
      const refund = await waitFor(async () => {
        const [r] = await ds.query(`SELECT wallet, amount::text, status FROM refunds WHERE id = $1`, [
          chain.refund.refundId,
        ]);
        return r?.status === 'completed' ? r : null;
      }, 'the refund to be paid');
      expect(refund).toEqual({
        wallet: payer.address.toLowerCase(),
        amount: String(budget - 11_000n),
        status: 'completed',
      });
    }
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });
});
