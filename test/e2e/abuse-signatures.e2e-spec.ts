import express from 'express';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { AgentKit, agoraMiddleware, AgoraRequest } from '@agora/sdk';
import { canonicalJson } from '@app/json-schema';
import { DeliverAttempt } from '@app/webhooks';
import { TestAgentServer } from '../support/agent-server';
import { startApi, ApiHarness } from '../support/api-harness';
import { fileDispute, paidExecute } from '../support/disputes';
import { capabilityPayload, registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server) => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => resolve(raw));
  });

/**
 * Issue 29, item 1: a platform signature is bound to the agent it was made for and to what it is
 * (a call, a callback, a dispute attestation). Victim B is the translator priced 5.00 behind the
 * agent kit configured with B's id; attacker A registers the same capability at 0.000001 and relays
 * whatever the platform sends it, body and X-Agora-Signature, to B.
 */
describe('Abuse: platform signatures are bound to their agent and purpose (e2e)', () => {
  let api: ApiHarness;
  let victim: Server;
  let attacker: Server;
  let sink: Server;
  let plain: TestAgentServer;
  let victimUrl: string;
  let sinkUrl: string;
  let victimId: string;
  let attackerId: string;
  let plainId: string;
  let victimKit: AgentKit | null = null;
  /** The calls B's handler ran (after its kit let them through). */
  const handled: NonNullable<AgoraRequest['agora']>[] = [];
  /** What B answered to each call A relayed. */
  const relayed: { status: number; body: string }[] = [];
  /** What reached the attacker's callback URL: body and X-Agora-Signature. */
  const callbacks: { signature: string; body: string }[] = [];

  const send = (headers: Record<string, string>, body: string) =>
    fetch(victimUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const pay = async (
    agentId: string,
    amount: bigint,
    input: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ) => {
    const h = await x402Header(newWallet(), { amount, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input, ...extra },
      headers: { [h.name]: h.value },
    });
  };

  beforeAll(async () => {
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    // B: its kit is made once B's id is known (the id comes from registering B's URL).
    const app = express();
    app.post(
      '/execute',
      (req, res, next) => (victimKit ? agoraMiddleware(victimKit)(req, res, next) : res.status(503).end()),
      (req: AgoraRequest, res) => {
        handled.push(req.agora!);
        res.json({ output: { translation: String(req.agora!.input.text ?? '').toUpperCase() } });
      },
    );
    victim = createServer(app);
    victimUrl = `${await listen(victim)}/execute`;
    const priced = (basePrice: string) => [
      capabilityPayload({ pricing: { model: 'per-request', basePrice, currency: 'USDC' } }),
    ];
    victimId = (
      await registerAgent(api, newWallet(), {
        name: 'Victim translator',
        capabilities: priced('5.000000'),
        endpoints: { execution: victimUrl },
      })
    ).body.data.id;
    victimKit = new AgentKit({ platformUrl: api.baseUrl, agentId: victimId });
    // A: forwards the body and X-Agora-Signature it is sent to B, and answers what B answers.
    attacker = createServer(async (req, res) => {
      const body = await readBody(req);
      const r = await send({ 'x-agora-signature': String(req.headers['x-agora-signature']) }, body);
      const text = await r.text();
      relayed.push({ status: r.status, body: text });
      res.writeHead(r.status, { 'content-type': 'application/json' });
      res.end(text);
    });
    const attackerUrl = `${await listen(attacker)}/execute`;
    attackerId = (
      await registerAgent(api, newWallet(), {
        name: 'Relay',
        capabilities: priced('0.000001'),
        endpoints: { execution: attackerUrl },
      })
    ).body.data.id;
    // The attacker's callback URL: it keeps what the platform signs for it.
    sink = createServer(async (req, res) => {
      callbacks.push({ signature: String(req.headers['x-agora-signature']), body: await readBody(req) });
      res.writeHead(200).end();
    });
    sinkUrl = await listen(sink);
    plain = await new TestAgentServer().start();
    plainId = (await registerAgent(api, newWallet(), { endpoints: { execution: plain.url } })).body.data.id;
  });
  afterAll(async () => {
    await Promise.all([close(victim), close(attacker), close(sink), plain.stop()]);
    await api.close();
  });

  it('refuses to make a kit without the agent id it verifies calls for', () => {
    expect(() => new AgentKit({ platformUrl: api.baseUrl } as never)).toThrow(/agentId/);
  });

  it('a call captured at attacker A (paid 0.001001) and relayed to B is 401: B does not run it', async () => {
    const before = handled.length;
    const res = await pay(attackerId, 1_001n, { text: 'relayed' });
    expect(relayed).toHaveLength(1);
    expect(relayed[0].status).toBe(401);
    expect(handled.length).toBe(before);
    // The client got no translation from B's work through A.
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('EXECUTION_FAILED');
  });

  it('a public dispute attestation presented to B as a call (within 300 s) is 401: B does not run it', async () => {
    const call = await paidExecute(api, plainId, newWallet(), 11_000n);
    const filed = await fileDispute(api, call);
    expect(filed.status).toBe(201);
    const dispute = (await api.request('GET', `/api/v1/disputes/${filed.body.data.disputeId}`)).body.data;
    const { facts, attestation } = dispute.platformEvidence;
    const before = handled.length;
    const res = await send({ 'x-agora-signature': attestation.signature }, canonicalJson(facts));
    expect(res.status).toBe(401);
    expect(handled.length).toBe(before);
  });

  it("an execution callback the platform signed for the attacker's URL, presented to B as a call, is 401", async () => {
    const res = await pay(plainId, 11_000n, { text: 'callback' }, { callbackUrl: sinkUrl });
    expect(res.status).toBe(200);
    const [delivery] = await api.app
      .get(DataSource)
      .query(`SELECT id FROM webhook_deliveries WHERE kind = 'callback' AND execution_id = $1`, [
        res.body.data.requestId,
      ]);
    expect(await api.app.get(DeliverAttempt).execute(delivery.id)).toBe('succeeded');
    const before = handled.length;
    const { signature, body } = callbacks.at(-1)!;
    expect(JSON.parse(body)).toMatchObject({ requestId: res.body.data.requestId, status: 'completed' });
    expect((await send({ 'x-agora-signature': signature }, body)).status).toBe(401);
    expect(handled.length).toBe(before);
  });

  it('a genuine call to B (paid 5.001) is accepted and names B', async () => {
    const before = handled.length;
    const res = await pay(victimId, 5_001_000n, { text: 'genuine' });
    expect(res.status).toBe(200);
    expect(res.body.data.output).toEqual({ translation: 'GENUINE' });
    expect(handled.length).toBe(before + 1);
    expect(handled.at(-1)).toMatchObject({
      agentId: victimId,
      requestId: res.body.data.requestId,
      capabilityId: 'translate',
      input: { text: 'genuine' },
    });
  });
});

/** Issue 29, item 6 (first bullet): a wallet signature seen on a read never authorizes a change. */
describe('Abuse: a wallet signature seen on a read cannot authorize a withdrawal (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let owner: ReturnType<typeof newWallet>;
  let agentId: string;
  const thief = newWallet().address;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    owner = newWallet();
    agentId = (await registerAgent(api, owner)).body.data.id;
    await seedCharge(api.app, { agentId, agentFee: 3_000_000n, reputation: 90 }); // 2.85 available
  });
  afterAll(() => api.close());

  const history = (headers: Record<string, string>) =>
    api.request('GET', `/api/v1/payments/history/${agentId}`, { headers });
  const withdraw = (headers: Record<string, string>, destinationWallet = thief) =>
    api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '2.000000', destinationWallet },
      headers,
    });
  const untouched = async () => {
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data).toMatchObject({
      available: '2.850000',
      totalWithdrawn: '0.000000',
    });
    expect((await ds.query(`SELECT count(*)::int AS n FROM withdrawals WHERE agent_id = $1`, [agentId]))[0].n).toBe(0);
  };

  it('the headers of GET /payments/history, presented to POST /payments/withdraw with another destination, are refused; the balance is unchanged', async () => {
    const seen = await walletHeaders(owner, agentId, null);
    expect((await history(seen)).status).toBe(200);
    const stolen = await withdraw(seen);
    expect([401, 403]).toContain(stolen.status);
    expect(stolen.body).toMatchObject({
      success: false,
      error: { code: stolen.status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN' },
    });
    await untouched();
  });

  it('a message signed for the read itself cannot be used for the withdrawal either', async () => {
    const seen = await walletHeaders(owner, agentId, `GET /api/v1/payments/history/${agentId}`, Date.now() + 1);
    expect((await history(seen)).status).toBe(200);
    const stolen = await withdraw(seen);
    expect([stolen.status, stolen.body.error.code]).toEqual([403, 'FORBIDDEN']);
    await untouched();
  });

  it('a message signed for this withdrawal works once; signed for another change it does not', async () => {
    const forPatch = await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 2);
    expect((await withdraw(forPatch)).status).toBe(403);
    await untouched();
    const signed = await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw', Date.now() + 3);
    expect((await withdraw(signed, owner.address)).status).toBe(201);
    const replay = await withdraw(signed, owner.address);
    expect([replay.status, replay.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });
});
