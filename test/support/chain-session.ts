import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { ApiHarness, startApi } from './api-harness';
import { TestAgentServer } from './agent-server';
import { orchestrateCapability, registerAgent } from './factories';
import { builtApp, RunningProcess, startProcess } from './processes';
import { newWallet } from './wallets';
import { x402Header } from './x402';

export const ROOT_COST = 21_000n; // 0.001 + the orchestrator's 0.020
export const CALL_COST = 11_000n; // 0.001 + the translator's 0.010

export const micros = (usdc: string) => BigInt(Math.round(Number(usdc) * 1e6));
export const usdc = (m: bigint) => (Number(m) / 1e6).toFixed(6);
export const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString('utf8'));

/** The ledger's, payments' and chains' invariants that fail (none: []). */
export async function chainInvariants(ds: DataSource) {
  return (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
    (r) => r.violations.length,
  );
}

/**
 * An api (chain tokens living `ttlS`), a worker, an orchestrator (the chains' root agent, making no
 * calls of its own) and a translator on loopback, for the root caller's chains (issue 34).
 */
export async function startChainSessions(ttlS: number) {
  const translator = await new TestAgentServer().start();
  const api: ApiHarness = await startApi({
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    CHAIN_TOKEN_TTL_S: String(ttlS),
    MAINTENANCE_INTERVAL_MS: '300',
    REFUND_DUST_MICRO: '0',
  });
  const ds = api.app.get(DataSource);
  const worker: RunningProcess = startProcess(builtApp('worker'), api.env);
  const orchestrator: RunningOrchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
  const translatorId: string = (await registerAgent(api, newWallet(), { endpoints: { execution: translator.url } }))
    .body.data.id;
  const orchestratorId: string = (
    await registerAgent(api, newWallet(), {
      endpoints: { execution: orchestrator.url },
      capabilities: [orchestrateCapability()],
    })
  ).body.data.id;
  orchestrator.serve(orchestratorId);

  return {
    api,
    ds,
    translator,
    orchestrator,
    translatorId,
    orchestratorId,
    async stop() {
      worker.child.kill('SIGKILL');
      await worker.exited;
      await orchestrator.stop();
      await api.close();
      await translator.stop();
    },
    invariants: () => chainInvariants(ds),
    /** A chain paid for (root cost + `budget`) by a new wallet; the root makes no calls. */
    async openChain(budget: string) {
      const payer = newWallet();
      const pay = await x402Header(payer, { amount: ROOT_COST + micros(budget), payTo: api.config.platformWallet });
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: { calls: [] }, chain: { budget } },
        headers: { [pay.name]: pay.value },
      });
      if (res.status !== 200) throw new Error(`opening a chain answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { data: res.body.data, payer };
    },
    /** A call of the translator with a chain token. */
    call: (token: string, text: string, mode?: string) =>
      api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: translatorId, capabilityId: 'translate', input: { text, ...(mode ? { mode } : {}) } },
        headers: { 'x-chain-token': token },
      }),
    chainRow: async (id: string) =>
      (
        await ds.query(
          `SELECT status, refunded::text, available::text, held_until AS "heldUntil" FROM chains WHERE id = $1`,
          [id],
        )
      )[0],
    nodes: async (id: string) =>
      Number((await ds.query(`SELECT count(*)::int AS n FROM chain_nodes WHERE chain_id = $1`, [id]))[0].n),
  };
}

export type ChainSessions = Awaited<ReturnType<typeof startChainSessions>>;
