import { Wallet } from 'ethers';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { ResolveOverdueDispute } from '@app/disputes';
import { startApi, ApiHarness } from '../support/api-harness';
import { fileDispute, paidExecute, resolveDispute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const CENT = 10_000n; // 0.01, the echo's price
const HOUR_MS = 3_600_000;
const MIN_SPEND = 1_000_000n;

/**
 * A dispute filed is an accusation, not a verdict (issue 52, review H2; REPUTATION_MODEL=weighted, the
 * default), played by the attacker: 10 wallets, each funded (it paid agora elsewhere), buy one run of an
 * honest agent and dispute it. Before: 10 x -5 at filing took it from 50 to 0, suspended at once, and its
 * honest clients got 404. Now a filing moves nothing; the penalty lands when a dispute is lost, and funded
 * payers take at most REPUTATION_FUNDED_PENALTY_CAP (10) an interval from one agent in all. A reputation
 * suspension is lifted by an agent_wins that takes the score back above 0.
 */
describe('Disputes weighed in the weighted model (e2e)', () => {
  let echo: Server;
  let echoUrl: string;
  let api: ApiHarness;
  let ds: DataSource;
  const clock = new FixedClock(new Date());

  beforeAll(async () => {
    echo = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ output: { translation: 'hola' } }));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
    api = await startApi(
      { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', FUNDED_PAYER_MIN_SPEND_MICRO: String(MIN_SPEND) },
      { clock },
    );
    ds = api.app.get(DataSource);
  });
  afterAll(async () => {
    await api.close();
    await new Promise((r) => echo.close(r));
  });

  async function echoAgent(): Promise<string> {
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: echoUrl },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' } })],
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }
  const reputation = async (id: string) => (await api.request('GET', `/api/v1/reputation/${id}`)).body.data;
  /** A wallet that has paid agora MIN_SPEND in settled fees to other owners' agents (its standing, as the sweep counts it). */
  async function fundedWallet(): Promise<Wallet> {
    const w = newWallet();
    await ds.query(`INSERT INTO payer_spend (payer, amount) VALUES (lower($1), $2)`, [w.address, MIN_SPEND.toString()]);
    return w;
  }
  const setScore = (id: string, score: number) =>
    ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [id, score]);

  it('10 funded wallets dispute one run each: the agent stays active; lost disputes take at most 10 an interval', async () => {
    const id = await echoAgent();
    const wallets = await Promise.all(Array.from({ length: 10 }, () => fundedWallet()));
    const calls = [];
    for (const w of wallets) calls.push(await paidExecute(api, id, w, PLATFORM_FEE + CENT));
    await setScore(id, 50);
    const filed: string[] = [];
    for (const call of calls) {
      const res = await fileDispute(api, call);
      expect(res.status).toBe(201);
      filed.push(res.body.data.disputeId as string);
    }
    const after = await reputation(id);
    expect(after).toMatchObject({ score: 50, status: 'active' });
    // Every filing is still an event, with the change it made: none.
    const filings = (after.recentEvents as { type: string; delta: number }[]).filter((e) => e.type === 'dispute.filed');
    expect(filings).toHaveLength(10);
    expect(filings.every((e) => e.delta === 0)).toBe(true);
    // An honest client is still served.
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + CENT);
    // The agent never answers: each dispute lapses client_wins on its payer's account, within the funded cap.
    clock.advance(49 * HOUR_MS);
    for (const d of filed) expect(await api.app.get(ResolveOverdueDispute).execute(d)).toBe(true);
    expect(await reputation(id)).toMatchObject({ score: 40, status: 'active' });
    clock.set(new Date());
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + CENT);
  });

  it("an admin's client_wins lands the filing's -5 and the loss's -5; an agent_wins reinstates a reputation suspension", async () => {
    const id = await echoAgent();
    const [a, b] = await Promise.all([fundedWallet(), fundedWallet()]);
    const lost = await paidExecute(api, id, a, PLATFORM_FEE + CENT);
    const won = await paidExecute(api, id, b, PLATFORM_FEE + CENT);
    await setScore(id, 8);
    const ids: string[] = [];
    for (const call of [lost, won]) ids.push((await fileDispute(api, call)).body.data.disputeId as string);
    expect(await reputation(id)).toMatchObject({ score: 8, status: 'active' });
    expect((await resolveDispute(api, ids[0], 'client_wins')).status).toBe(200);
    expect(await reputation(id)).toMatchObject({ score: 0, status: 'suspended' });
    const [suspended] = await ds.query(`SELECT suspended_by FROM agents WHERE id = $1`, [id]);
    expect(suspended.suspended_by).toBe('reputation');
    await expect(paidExecute(api, id, newWallet(), PLATFORM_FEE + CENT)).rejects.toThrow(/execute answered 404/);
    // The other dispute was unfounded: +2 takes it back above 0, and the suspension its score caused is lifted.
    expect((await resolveDispute(api, ids[1], 'agent_wins')).status).toBe(200);
    expect(await reputation(id)).toMatchObject({ score: 2, status: 'active' });
    const [row] = await ds.query(`SELECT suspended_by, suspended_reason FROM agents WHERE id = $1`, [id]);
    expect(row).toEqual({ suspended_by: null, suspended_reason: null });
    await paidExecute(api, id, newWallet(), PLATFORM_FEE + CENT);
  });

  it("an admin's suspension stays when an agent_wins raises the score", async () => {
    const id = await echoAgent();
    const call = await paidExecute(api, id, await fundedWallet(), PLATFORM_FEE + CENT);
    const d = (await fileDispute(api, call)).body.data.disputeId as string;
    await ds.query(
      `UPDATE agents SET status = 'suspended', suspended_by = 'admin', suspended_reason = 'fraud' WHERE id = $1`,
      [id],
    );
    expect((await resolveDispute(api, d, 'agent_wins')).status).toBe(200);
    expect(await reputation(id)).toMatchObject({ status: 'suspended' });
  });
});
