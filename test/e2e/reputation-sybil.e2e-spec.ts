import { Wallet } from 'ethers';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { ResolveOverdueDispute } from '@app/disputes';
import { startApi, ApiHarness } from '../support/api-harness';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { matureSpend } from '../support/payer-spend';
import { newWallet } from '../support/wallets';

const PLATFORM_FEE = 1_000n;
const CENT = 10_000n; // 0.01, the echo's price
const HOUR_MS = 3_600_000;

/**
 * Reputation weighed in money, not wallets (issue 52; resolutions §7), played by an attacker with
 * fresh wallets (free) against an honest echo agent on loopback. Before: 26 wallets each sending one
 * schema-valid 300 KB text (its echo broke the 256 KiB output cap: a free failed run, -2) suspended
 * it; 13 wallets each disputing one cheap run took 65 points; 12 price-0 runs from 4 wallets made
 * an agent Trusted (62). Now a failure the platform's cap causes from the caller's own input is not
 * the agent's, price-0 runs move nothing, and in the weighted model (the default) wallets that paid
 * agora nothing elsewhere add nothing and take at most 5 points an hour from one agent in all.
 */
describe('Reputation against free wallets (e2e)', () => {
  let echo: Server;
  let echoUrl: string;

  beforeAll(async () => {
    // The honest echo: answers its input's text (`times` over, for the amplifier of the control case).
    echo = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { input } = JSON.parse(Buffer.concat(chunks).toString()) as { input: { text: string; times?: number } };
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ output: { translation: input.text.repeat(input.times ?? 1) } }));
      });
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((r) => echo.close(r));
  });

  async function echoAgent(api: ApiHarness, basePrice = '0.010000', owner: Wallet = newWallet()): Promise<string> {
    const res = await registerAgent(api, owner, {
      endpoints: { execution: echoUrl },
      capabilities: [capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } })],
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  }
  const reputation = async (api: ApiHarness, id: string) =>
    (await api.request('GET', `/api/v1/reputation/${id}`)).body.data;
  const send = (api: ApiHarness, id: string, input: Record<string, unknown>, payer = newWallet()) =>
    paidExecute(api, id, payer, PLATFORM_FEE + CENT, input).then(
      () => 200,
      (err: Error) => Number(/execute answered (\d+)/.exec(err.message)?.[1]),
    );

  /** 26 fresh wallets, one 300 KB text each: every run fails on the output cap and costs nothing. */
  async function capAttack(api: ApiHarness, id: string): Promise<void> {
    const text = 'a'.repeat(300_000);
    const statuses = await Promise.all(Array.from({ length: 26 }, () => send(api, id, { text })));
    expect(statuses).toEqual(Array(26).fill(502));
    const [charged] = await api.app
      .get(DataSource)
      .query(`SELECT count(*)::int AS n FROM transactions WHERE providing_agent_id = $1`, [id]);
    expect(charged.n).toBe(0);
  }

  describe('REPUTATION_MODEL=weighted (the default)', () => {
    let api: ApiHarness;
    const clock = new FixedClock(new Date());

    beforeAll(async () => {
      api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' }, { clock });
    });
    afterAll(async () => {
      await api.close();
    });

    it("26 fresh wallets' 300 KB texts break the output cap: the agent keeps 50, stays active, and serves the next client", async () => {
      const id = await echoAgent(api);
      await capAttack(api, id);
      expect(await reputation(api, id)).toMatchObject({ score: 50, status: 'active' });
      expect(await send(api, id, { text: 'hola' })).toBe(200);
      // The agent's own doing still counts: a 1 KB text it blows past the cap is -2.
      expect(await send(api, id, { text: 'b'.repeat(1_000), times: 300 })).toBe(502);
      expect((await reputation(api, id)).score).toBe(48);
    });

    it('12 price-0 runs from 4 wallets leave the score at 50 (Standard): nothing at stake, nothing moves', async () => {
      const id = await echoAgent(api, '0.000000');
      const wallets = Array.from({ length: 4 }, () => newWallet());
      for (const w of wallets) for (let i = 0; i < 3; i++) await paidExecute(api, id, w, PLATFORM_FEE);
      expect(await reputation(api, id)).toMatchObject({ score: 50, tier: 'Standard' });
    });

    it('gains come from payers who paid other owners: sock puppets funded through the owner or themselves add nothing', async () => {
      const owner = newWallet();
      const id = await echoAgent(api, '0.010000', owner);
      // The owner's second agent, a puppet's own agent: money that goes round to the attacker counts for nothing.
      const ownersOther = await echoAgent(api, '1.000000', owner);
      const puppet = newWallet();
      const puppetsOwn = await echoAgent(api, '1.000000', puppet);
      for (const target of [ownersOther, puppetsOwn]) await paidExecute(api, target, puppet, PLATFORM_FEE + 1_000_000n);
      await matureSpend(api, [puppet]);
      await paidExecute(api, id, puppet, PLATFORM_FEE + CENT);
      expect((await reputation(api, id)).score).toBe(50);
      // A payer that paid 1.00 to an agent of another owner, past its filing window undisputed, is funded:
      // +1 a run, at most +3 a day. Not before that week: until then it could still dispute the 1.00 back.
      const shop = await echoAgent(api, '1.000000');
      const client = newWallet();
      await paidExecute(api, shop, client, PLATFORM_FEE + 1_000_000n);
      await paidExecute(api, id, client, PLATFORM_FEE + CENT);
      expect((await reputation(api, id)).score).toBe(50);
      await matureSpend(api, [client]);
      for (let i = 0; i < 5; i++) await paidExecute(api, id, client, PLATFORM_FEE + CENT);
      expect((await reputation(api, id)).score).toBe(53);
      // Its failures count in full (once an hour), past the cap on unfunded payers.
      expect(await send(api, id, { text: 'c'.repeat(1_000), times: 300 }, client)).toBe(502);
      expect((await reputation(api, id)).score).toBe(51);
    });

    it('13 fresh wallets each buy one cheap run and dispute it: filing moves nothing, their lapse 5 points at most', async () => {
      const id = await echoAgent(api);
      const calls = await Promise.all(
        Array.from({ length: 13 }, () => paidExecute(api, id, newWallet(), PLATFORM_FEE + CENT)),
      );
      expect((await reputation(api, id)).score).toBe(50);
      const filed = [];
      for (const call of calls) {
        const res = await fileDispute(api, call);
        expect(res.status).toBe(201);
        filed.push(res.body.data.disputeId as string);
      }
      // A filing is an accusation, not a verdict: nothing moves until a dispute is lost.
      expect(await reputation(api, id)).toMatchObject({ score: 50, status: 'active' });
      // The honest echo never answers disputes: the window lapses, each resolves client_wins on its payer's account.
      clock.advance(49 * HOUR_MS);
      for (const d of filed) expect(await api.app.get(ResolveOverdueDispute).execute(d)).toBe(true);
      expect(await reputation(api, id)).toMatchObject({ score: 45, status: 'active' });
      clock.set(new Date());
      expect(await send(api, id, { text: 'hola' })).toBe(200);
    });
  });

  describe('REPUTATION_MODEL=spec: the literal deltas, with the exclusions of every mode', () => {
    let api: ApiHarness;

    beforeAll(async () => {
      api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', REPUTATION_MODEL: 'spec' });
    });
    afterAll(async () => {
      await api.close();
    });

    it('the output-cap attack and price-0 runs move nothing; a paid run from a fresh wallet is +1, a failure of its own -2', async () => {
      const id = await echoAgent(api);
      await capAttack(api, id);
      expect(await reputation(api, id)).toMatchObject({ score: 50, status: 'active' });
      const free = await echoAgent(api, '0.000000');
      for (const w of Array.from({ length: 4 }, () => newWallet()))
        for (let i = 0; i < 3; i++) await paidExecute(api, free, w, PLATFORM_FEE);
      expect(await reputation(api, free)).toMatchObject({ score: 50, tier: 'Standard' });
      expect(await send(api, id, { text: 'hola' })).toBe(200);
      expect((await reputation(api, id)).score).toBe(51);
      expect(await send(api, id, { text: 'd'.repeat(1_000), times: 300 })).toBe(502);
      expect((await reputation(api, id)).score).toBe(49);
    });
  });
});
