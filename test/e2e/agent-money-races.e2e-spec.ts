import { DataSource } from 'typeorm';
import { DISPUTE_CHECKS } from '@app/disputes';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { ADMIN, fileDispute, paidExecute, PaidCall } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const ROUNDS = 30;
/**
 * Disputes filed and resolved in the race. Each filing costs the agent 5 points of reputation and a
 * client win 5 more, and a score taken to 0 suspends the agent (after which its withdrawals are 403):
 * at 30 the order of the race decided whether the agent survived it (a CI run got one 403). At 12
 * (4 client wins) the worst order leaves 100 - 60 - 20 = 20, so every request must succeed.
 */
const DISPUTES = 12;

/**
 * One agent's money moved from every side at once: charges released into available inside their
 * own transaction (a Trusted agent), withdrawals taking from available, disputes freezing released
 * earnings, and their resolutions. Each takes the agent's ledger accounts and then its row; a
 * charge that took the row first deadlocked against withdrawals (found by the many-instances
 * mixed load at 5x: 500s on /payments/withdraw). Nothing may answer 500, and the ledger must hold.
 */
describe("an agent's money moved from every side at once (e2e)", () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '1000000',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
    });
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  it(`${ROUNDS} inline-released charges, ${ROUNDS} withdrawals and ${DISPUTES} dispute filings and resolutions at once: no deadlock, every request answered, invariants hold`, async () => {
    const wallet = newWallet();
    const agentId = (
      await registerAgent(api, wallet, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    await seedCharge(api.app, { agentId, agentFee: BigInt(ROUNDS) * 1_100_000n, reputation: 100 });
    await ds.query(`UPDATE agents SET reputation_score = 100 WHERE id = $1`, [agentId]);
    // Released earnings to dispute while everything else runs.
    const earlier: PaidCall[] = [];
    for (let i = 0; i < DISPUTES; i++) earlier.push(await paidExecute(api, agentId, newWallet(), PRICE));

    let ts = Date.now();
    const withdrawHeaders = await Promise.all(
      Array.from({ length: ROUNDS }, () => walletHeaders(wallet, agentId, 'POST /api/v1/payments/withdraw', ++ts)),
    );
    const payments = await Promise.all(
      Array.from({ length: ROUNDS }, () =>
        x402Header(newWallet(), { amount: PRICE, payTo: api.config.platformWallet }),
      ),
    );
    const disputeAndResolve = async (call: PaidCall, i: number) => {
      const filed = await fileDispute(api, call);
      if (filed.status !== 201) return [filed.status];
      const resolution = ['client_wins', 'agent_wins', 'split'][i % 3];
      const resolved = await api.request('POST', `/api/v1/admin/disputes/${filed.body.data.disputeId}/resolve`, {
        body: { resolution },
        headers: ADMIN,
      });
      return [filed.status, resolved.status];
    };
    const results = await Promise.all([
      ...payments.map((p) =>
        api
          .request('POST', '/api/v1/execute', {
            body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x' } },
            headers: { [p.name]: p.value },
          })
          .then((r) => [r.status]),
      ),
      ...withdrawHeaders.map((headers) =>
        api
          .request('POST', '/api/v1/payments/withdraw', {
            body: { agentId, amount: '1.000000', destinationWallet: newWallet().address },
            headers,
          })
          .then((r) => [r.status]),
      ),
      ...earlier.map(disputeAndResolve),
    ]);
    const statuses = results.flat();
    expect(statuses.filter((s) => ![200, 201].includes(s))).toEqual([]);
    expect(statuses).toHaveLength(2 * ROUNDS + 2 * DISPUTES);

    const [counts] = await ds.query(
      `SELECT (SELECT count(*) FROM transactions WHERE providing_agent_id = $1)::int AS charges,
              (SELECT count(*) FROM withdrawals WHERE agent_id = $1)::int AS withdrawals,
              (SELECT count(*) FROM disputes d JOIN transactions t ON t.id = d.transaction_id WHERE t.providing_agent_id = $1 AND d.status = 'resolved')::int AS resolved`,
      [agentId],
    );
    expect(counts).toEqual({ charges: 1 + DISPUTES + ROUNDS, withdrawals: ROUNDS, resolved: DISPUTES });
    const [agent] = await ds.query(`SELECT status, reputation_score FROM agents WHERE id = $1`, [agentId]);
    expect(agent.status).toBe('active');
    expect(agent.reputation_score).toBeGreaterThanOrEqual(20);
    const report = await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS, ...DISPUTE_CHECKS]);
    expect(report.results.filter((r) => r.violations.length)).toEqual([]);
  }, 120_000);
});
