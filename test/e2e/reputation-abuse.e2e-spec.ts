import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PLATFORM_FEE = 1_000n;

/**
 * Reputation that cannot be bought or griefed (issue 28, items 2 and 3; resolutions §7). Bought:
 * before, ten price-0 runs paid by the agent's own wallet took it from 50 to 60 (Trusted) for 0.01.
 * Griefed: before, 26 schema-valid requests the agent answered 400 took an honest agent to 0, which
 * suspended it, refused its withdrawal (403) and hid it from real clients (404).
 */
describe('Reputation abuse (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    // Runs over 400 ms time out (the agent's `slow` mode answers after 2 s); Standard-tier earnings are released at once.
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      EXECUTION_TIMEOUT_MS: '400',
      ESCROW_HOLD_STANDARD_S: '0',
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  async function newAgent(owner: Wallet, basePrice: string): Promise<string> {
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string' }, mode: { type: 'string' } },
            required: ['text'],
          },
          pricing: { model: 'per-request', basePrice, currency: 'USDC' },
        }),
      ],
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  const reputation = async (id: string) => (await api.request('GET', `/api/v1/reputation/${id}`)).body.data;
  const execute = async (agentId: string, payer: Wallet, amount: bigint, input: Record<string, unknown>) => {
    const pay = await x402Header(payer, { amount, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input },
      headers: { [pay.name]: pay.value },
    });
  };
  const withdraw = async (owner: Wallet, agentId: string, amount: string) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount, destinationWallet: owner.address },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
    });

  it("runs paid by the agent's own wallet, and price-0 runs by anyone, move nothing (score, tier, leaderboard); analytics counts them, marked", async () => {
    const owner = newWallet();
    const id = await newAgent(owner, '0.000000');
    for (let i = 0; i < 10; i++) await paidExecute(api, id, owner, PLATFORM_FEE);
    expect(await reputation(id)).toMatchObject({ score: 50, tier: 'Standard' });
    const [agent] = await ds.query(`SELECT execution_count FROM agents WHERE id = $1`, [id]);
    expect(agent.execution_count).toBe(0);
    const board = (await api.request('GET', '/api/v1/reputation/leaderboard?limit=100')).body.data.leaderboard;
    expect(board.find((e: { agentId: string }) => e.agentId === id)).toMatchObject({ score: 50, totalExecutions: 0 });
    const events = await ds.query(
      `SELECT delta, payer FROM reputation_events WHERE agent_id = $1 AND type = 'execution.completed'`,
      [id],
    );
    expect(events).toHaveLength(10);
    expect(
      events.every((e: { delta: number; payer: string }) => e.delta === 0 && e.payer === owner.address.toLowerCase()),
    ).toBe(true);
    const stats = (await api.request('GET', `/api/v1/analytics/agent/${id}?period=day`)).body.data.executions;
    expect(stats).toMatchObject({ successful: 10, selfPaid: 10 });

    // Ten price-0 runs by one other payer, one by another: nothing at stake, nothing moves (resolutions §7,
    // every mode; the daily cap of a paying payer is in reputation-weight).
    const payer = newWallet();
    for (let i = 0; i < 10; i++) await paidExecute(api, id, payer, PLATFORM_FEE);
    expect((await reputation(id)).score).toBe(50);
    await paidExecute(api, id, newWallet(), PLATFORM_FEE);
    expect((await reputation(id)).score).toBe(50);
    expect((await api.request('GET', `/api/v1/analytics/agent/${id}?period=day`)).body.data.executions).toMatchObject({
      successful: 21,
      selfPaid: 10,
    });
  });

  it('30 requests the agent refused (400) from one wallet, then 10 timeouts from 10 fresh wallets: the agent stays active, withdraws, and the next client gets 200', async () => {
    const owner = newWallet();
    const id = await newAgent(owner, '2.000000');
    // A wallet that paid agora nothing elsewhere adds nothing (REPUTATION_MODEL=weighted, the default).
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + 2_000_000n);
    expect((await reputation(id)).score).toBe(50);
    const griefer = newWallet();
    for (let i = 0; i < 30; i++) {
      const res = await execute(id, griefer, PLATFORM_FEE + 2_000_000n, { text: `x${i}`, mode: 'refuse' });
      expect([res.status, res.body.error.code]).toEqual([502, 'EXECUTION_FAILED']);
    }
    // Refused requests are the agent's choice, not its failure.
    expect(await reputation(id)).toMatchObject({ score: 50, status: 'active' });
    const wallets = Array.from({ length: 10 }, () => newWallet());
    for (const w of wallets)
      expect((await execute(id, w, PLATFORM_FEE + 2_000_000n, { text: 'slow', mode: 'slow' })).status).toBe(504);
    // Fresh wallets' penalties take at most REPUTATION_UNFUNDED_PENALTY_CAP (5) an hour from one agent, in all.
    expect(await reputation(id)).toMatchObject({ score: 45, status: 'active' });
    // The same wallets again within the hour: their penalties already counted.
    for (const w of wallets.slice(0, 5))
      expect((await execute(id, w, PLATFORM_FEE + 2_000_000n, { text: 'slow again', mode: 'slow' })).status).toBe(504);
    expect((await reputation(id)).score).toBe(45);
    expect((await withdraw(owner, id, '1.000000')).status).toBe(201);
    const honest = await execute(id, newWallet(), PLATFORM_FEE + 2_000_000n, { text: 'hola' });
    expect([honest.status, honest.body.data.output]).toEqual([200, { translation: 'HOLA' }]);
    // Nothing was charged for the refused and timed-out runs.
    expect(
      (await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE providing_agent_id = $1`, [id]))[0].n,
    ).toBe(2);
  });

  it('a score that reached 0 stops executions but not withdrawals past the reserve; an admin suspension stops both', async () => {
    const owner = newWallet();
    const id = await newAgent(owner, '2.000000');
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + 2_000_000n);
    await ds.query(`UPDATE agents SET reputation_score = 1 WHERE id = $1`, [id]);
    expect((await execute(id, newWallet(), PLATFORM_FEE + 2_000_000n, { text: 'slow', mode: 'slow' })).status).toBe(
      504,
    );
    expect(await reputation(id)).toMatchObject({ score: 0, status: 'suspended' });
    expect((await execute(id, newWallet(), PLATFORM_FEE + 2_000_000n, { text: 'hola' })).status).toBe(404);
    expect((await withdraw(owner, id, '1.000000')).status).toBe(201);

    const other = newWallet();
    const adminSuspended = await newAgent(other, '2.000000');
    await paidExecute(api, adminSuspended, newWallet(), PLATFORM_FEE + 2_000_000n);
    const suspended = await api.request('POST', `/api/v1/admin/agents/${adminSuspended}/suspend`, {
      body: { reason: 'fraud review' },
      headers: ADMIN,
    });
    expect(suspended.status).toBe(200);
    const refused = await withdraw(other, adminSuspended, '1.000000');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'FORBIDDEN']);
  });
});
