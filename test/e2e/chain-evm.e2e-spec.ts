import { DataSource } from 'typeorm';
import { CHAIN_CHECKS } from '@app/chains';
import { FaultInjector } from '@app/common';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { SettlementAdapter } from '@app/onchain';
import { PAYMENT_CHECKS } from '@app/payments';
import { startOrchestratorAgent, RunningOrchestrator } from '../../examples/orchestrator-agent';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { evmEnv } from '../support/evm-env';
import { agentPayload, REGISTRATION_FEE_MICROS, orchestrateCapability } from '../support/factories';
import { builtApp, RunningProcess, startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const ROOT_COST = 21_000n;
const SUB_COST = 11_000n;
const BUDGET = 1_000_000n;

/**
 * A chain in `evm` mode on anvil: the root's payment (root cost + budget) settled on chain before
 * the root runs, two sub-calls paid from the budget, the worker's refund of what was left sent on
 * chain, and I8: the platform wallet's USDC delta equals what the ledger says came in net.
 */
describe('chains on anvil (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let orchestrator: RunningOrchestrator;
  let worker: RunningProcess | undefined;
  let platformStart: bigint;

  beforeAll(async () => {
    chain = await startChain();
    translator = await new TestAgentServer().start();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      MAINTENANCE_INTERVAL_MS: '300',
      // The root's answer holds the chain open for its caller's token: short-lived here, so the chain closes
      // (and refunds on chain) seconds after the root's answer, well inside the test's waits.
      CHAIN_TOKEN_TTL_S: '2',
    });
    ds = api.app.get(DataSource);
    orchestrator = await startOrchestratorAgent({ platformUrl: api.baseUrl });
    platformStart = await chain.balanceOf(chain.platform.address);
  }, 60_000);
  afterAll(async () => {
    if (worker) {
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    await orchestrator?.stop();
    await api?.close();
    await translator?.stop();
    await chain?.stop();
  });

  const pay = async (amount: bigint, w = newWallet()) => {
    await chain.mint(w.address, amount);
    return {
      wallet: w,
      header: await x402Header(w, { amount, payTo: chain.platform.address, asset: chain.usdcAddress }),
    };
  };
  const register = async (overrides: Record<string, unknown>) => {
    const owner = newWallet();
    const { header } = await pay(REGISTRATION_FEE_MICROS, owner);
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(owner, overrides),
      headers: { [header.name]: header.value },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  it('settles the root on chain, pays sub-calls from the budget and refunds the rest on chain; the wallet delta matches the ledger', async () => {
    const translatorId = await register({ endpoints: { execution: translator.url } });
    const orchestratorId = await register({
      endpoints: { execution: orchestrator.url },
      capabilities: [orchestrateCapability()],
    });
    orchestrator.serve(orchestratorId);
    const { wallet: payer, header } = await pay(ROOT_COST + BUDGET);
    const calls = ['a', 'b'].map((text) => ({
      targetAgentId: translatorId,
      capabilityId: 'translate',
      input: { text },
    }));
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: { calls }, chain: { budget: '1.00' } },
      headers: { [header.name]: header.value },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settlement).toEqual({
      status: 'settled',
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      livemode: false,
    });
    expect(res.body.data.output.results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
    expect(await chain.balanceOf(payer.address)).toBe(0n); // the whole payment moved before the root ran
    worker = startProcess(builtApp('worker'), api.env);
    const { chainId } = res.body.data.chain;
    const refundId = await waitFor(
      async () =>
        (await api.request('GET', `/api/v1/chains/${chainId}`)).body.data.refund?.refundId as string | undefined,
      'the chain to end',
      30_000,
    );
    await waitFor(
      async () => (await ds.query(`SELECT status FROM refunds WHERE id = $1`, [refundId]))[0].status === 'completed',
      'the refund to be sent',
      30_000,
    );
    const left = BUDGET - 2n * SUB_COST;
    expect(await chain.balanceOf(payer.address)).toBe(left); // refunded on chain, once
    const earned = REGISTRATION_FEE_MICROS * 2n + ROOT_COST + BUDGET - left;
    expect(await chain.balanceOf(chain.platform.address)).toBe(platformStart + earned);
    const [world] = await ds.query(`SELECT (-sum(balance))::text AS net FROM ledger_accounts WHERE kind = 'world'`);
    expect(BigInt(world.net)).toBe(earned); // I8 against the chain itself
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });

  it('a root whose payment fails to settle: 502 SETTLEMENT_FAILED, the root never runs, nothing funds the chain', async () => {
    const orchestratorId = await register({
      endpoints: { execution: orchestrator.url },
      capabilities: [orchestrateCapability()],
    });
    orchestrator.serve(orchestratorId);
    const { wallet: payer, header } = await pay(ROOT_COST + BUDGET);
    // The chain's node is down for this one settlement (the authorization never reaches the chain).
    const settle = jest
      .spyOn(api.app.get(SettlementAdapter), 'settle')
      .mockRejectedValueOnce(new Error('connect ECONNREFUSED (test: the RPC is down)'));
    const calls = orchestrator.state.calls.length;
    try {
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: {}, chain: { budget: '1.00' } },
        headers: { [header.name]: header.value },
      });
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe('SETTLEMENT_FAILED');
    } finally {
      settle.mockRestore();
    }
    expect(orchestrator.state.calls.length).toBe(calls); // the root never ran
    expect(await chain.balanceOf(payer.address)).toBe(ROOT_COST + BUDGET); // nothing moved
    const [row] = await ds.query(`SELECT id FROM chains WHERE root_wallet = $1`, [payer.address.toLowerCase()]);
    const [root] = await ds.query(`SELECT status, agent_error AS error FROM executions WHERE chain_id = $1`, [row.id]);
    expect(root).toEqual({ status: 'failed', error: 'the chain payment did not settle' });
    const [payment] = await ds.query(`SELECT status FROM payments WHERE payer = $1`, [payer.address.toLowerCase()]);
    expect(payment.status).toBe('settlement_failed'); // left to its retries
    const [budget] = await ds.query(
      `SELECT coalesce(sum(balance), 0)::text AS held FROM ledger_accounts WHERE code = $1`,
      [`chain:${row.id}:budget`],
    );
    expect(budget.held).toBe('0'); // no budget was funded
  });

  it('a root whose process died before its payment settled: the worker settles it, ends the chain unrun and refunds all of it on chain', async () => {
    const orchestratorId = await register({
      endpoints: { execution: orchestrator.url },
      capabilities: [orchestrateCapability()],
    });
    orchestrator.serve(orchestratorId);
    const { wallet: payer, header } = await pay(ROOT_COST + BUDGET);
    api.app.get(FaultInjector).arm('chain.after-record');
    const calls = orchestrator.state.calls.length;
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: orchestratorId, capabilityId: 'orchestrate', input: {}, chain: { budget: '1.00' } },
      headers: { [header.name]: header.value },
    });
    expect(res.status).toBe(500); // the simulated crash
    const [row] = await ds.query(`SELECT id, status FROM chains WHERE root_wallet = $1`, [payer.address.toLowerCase()]);
    expect(row.status).toBe('pending');
    // The root's claim runs out; the worker's sweep takes it: settles, funds and ends the chain, refunds it all.
    await ds.query(`UPDATE executions SET locked_until = now() - interval '1 second' WHERE chain_id = $1`, [row.id]);
    worker ??= startProcess(builtApp('worker'), api.env);
    const refundId = await waitFor(
      async () =>
        (await api.request('GET', `/api/v1/chains/${row.id}`)).body.data.refund?.refundId as string | undefined,
      'the chain to end',
      30_000,
    );
    await waitFor(
      async () => (await ds.query(`SELECT status FROM refunds WHERE id = $1`, [refundId]))[0].status === 'completed',
      'the refund to be sent',
      30_000,
    );
    expect(await chain.balanceOf(payer.address)).toBe(ROOT_COST + BUDGET); // all of it came back, once
    expect((await api.request('GET', `/api/v1/chains/${row.id}`)).body.data).toMatchObject({
      status: 'failed',
      nodeCount: 0,
    });
    expect(orchestrator.state.calls.length).toBe(calls); // the root never ran
    const [root] = await ds.query(`SELECT status FROM executions WHERE chain_id = $1`, [row.id]);
    expect(root.status).toBe('failed');
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...CHAIN_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  });
});
