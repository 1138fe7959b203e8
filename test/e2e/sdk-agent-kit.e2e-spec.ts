import express from 'express';
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { AgentKit, AgoraClient, agoraMiddleware, AgoraRequest, AuthenticationError } from '@agora/sdk';
import { startApi, ApiHarness } from '../support/api-harness';
import { capabilityPayload } from '../support/factories';
import { newWallet } from '../support/wallets';

const listen = async (server: Server) => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server) => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));

/**
 * The agent kit (@agora/sdk) in an Express agent called by the real api: calls the platform signed
 * reach the handler with the verified call; anything else is answered 401 before it.
 */
describe('SDK agent kit (e2e)', () => {
  let api: ApiHarness;
  let agent: Server;
  let agentUrl: string;
  let agentId: string;
  let kit: AgentKit | null = null;
  const seen: AgoraRequest['agora'][] = [];
  const captured: { signature: string; body: string }[] = [];

  beforeAll(async () => {
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    const app = express();
    // What an eavesdropper would capture: the signature and the exact body bytes (read from a copy of the stream).
    app.use((req, _res, next) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString()));
      req.on('end', () => captured.push({ signature: String(req.headers['x-agora-signature']), body: raw }));
      next();
    });
    // The kit is made once the agent's id is known: registering its URL is what gives the id.
    app.post(
      '/execute',
      (req, res, next) => (kit ? agoraMiddleware(kit)(req, res, next) : res.status(503).end()),
      (req: AgoraRequest, res) => {
        seen.push(req.agora);
        res.json({ output: { translation: String(req.agora!.input.text).toUpperCase() } });
      },
    );
    agent = createServer(app);
    agentUrl = `${await listen(agent)}/execute`;
    const owner = new AgoraClient({ baseUrl: api.baseUrl, wallet: newWallet() });
    const registered = await owner.registerAgent({
      name: 'Kit agent',
      description: 'Uses the agent kit',
      capabilities: [capabilityPayload() as never],
      endpoints: { execution: agentUrl },
    });
    agentId = registered.id;
    kit = new AgentKit({ platformUrl: api.baseUrl, agentId });
  });
  afterAll(async () => {
    await close(agent);
    await api.close();
  });

  it('lets the platform’s signed calls through with the verified call on req.agora', async () => {
    const result = await new AgoraClient({ baseUrl: api.baseUrl, wallet: newWallet() }).execute({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'kit' },
    });
    expect(result.output).toEqual({ translation: 'KIT' });
    expect(seen.at(-1)).toMatchObject({
      agentId,
      requestId: result.requestId,
      capabilityId: 'translate',
      input: { text: 'kit' },
      chain: null,
    });
  });

  it('answers 401 to unsigned, malformed, forged, replayed and tampered calls, and 413 to a huge one, without reaching the handler', async () => {
    const before = seen.length;
    const body = JSON.stringify({ agentId, requestId: 'req_forged', capabilityId: 'translate', input: { text: 'x' } });
    const { privateKey } = generateKeyPairSync('ed25519');
    const t = Math.floor(Date.now() / 1000);
    const forged = `t=${t},ed25519=${sign(null, Buffer.from(`agora-call.v2.${t}.${agentId}.req_forged.${createHash('sha256').update(body).digest('hex')}`), privateKey).toString('base64')}`;
    const post = (headers: Record<string, string>, b = body) =>
      fetch(agentUrl, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: b });
    const cases: Record<string, string>[] = [{}, { 'x-agora-signature': 'garbage' }, { 'x-agora-signature': forged }];
    for (const headers of cases) {
      const res = await post(headers);
      expect(res.status).toBe(401);
    }
    // A call the platform really signed: accepted once; replayed, or with its body changed, refused.
    const call = captured.find((c) => c.body.includes('"text":"kit"'))!;
    const replayed = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-signature': call.signature },
      body: call.body,
    });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toEqual({ error: 'This signed call was already received (a replay)' });
    const tampered = await fetch(agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-agora-signature': call.signature },
      body: call.body.replace('kit', 'kat'),
    });
    expect(tampered.status).toBe(401);
    const huge = await post({}, JSON.stringify({ requestId: 'req_big', input: { text: 'x'.repeat(1_100_000) } })).catch(
      (e: unknown) => e,
    );
    expect(huge).toMatchObject({ status: 413 });
    expect(seen.length).toBe(before);
  });
});

/** The kit against a key server the test controls: rotation is picked up, and forged calls cannot make it fetch keys on every request. */
describe('SDK agent kit: platform keys', () => {
  let keysServer: Server;
  let hits = 0;
  let current = generateKeyPairSync('ed25519');
  const raw = (k: typeof current) =>
    k.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');

  beforeAll(async () => {
    keysServer = createServer((req, res) => {
      hits++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ success: true, data: { keys: [{ kid: 'k', alg: 'Ed25519', publicKey: raw(current) }] } }),
      );
    });
  });
  afterAll(() => close(keysServer));

  const AGENT = '0f0e0d0c-0b0a-4909-8807-060504030201';
  // What the platform signs for a call (docs/sdk.md), written out here without the SDK's helpers.
  const signed = (keys: typeof current, requestId: string, offsetS = 0, agentId = AGENT) => {
    const body = JSON.stringify({ agentId, requestId, capabilityId: 'c', input: {} });
    const t = Math.floor(Date.now() / 1000) + offsetS;
    const sig = sign(
      null,
      Buffer.from(`agora-call.v2.${t}.${agentId}.${requestId}.${createHash('sha256').update(body).digest('hex')}`),
      keys.privateKey,
    ).toString('base64');
    return { headers: { 'x-agora-signature': `t=${t},ed25519=${sig}` }, body };
  };

  it('reads the keys once for many calls, not again for forged ones while they are under 30 s old, and again for a rotated key after that; refuses a stale or replayed call', async () => {
    const kit = new AgentKit({ platformUrl: await listen(keysServer), agentId: AGENT });
    for (let i = 0; i < 5; i++) {
      const c = signed(current, `req_${i}`);
      await expect(kit.verifyCall(c.headers, c.body)).resolves.toMatchObject({ requestId: `req_${i}` });
    }
    expect(hits).toBe(1);
    const attacker = generateKeyPairSync('ed25519');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => signed(attacker, `req_bad_${i}`)).map((c) =>
        expect(kit.verifyCall(c.headers, c.body)).rejects.toBeInstanceOf(AuthenticationError),
      ),
    );
    expect(hits).toBe(1);
    const replay = signed(current, 'req_once');
    await kit.verifyCall(replay.headers, replay.body);
    await expect(kit.verifyCall(replay.headers, replay.body)).rejects.toThrow(/replay/);
    const stale = signed(current, 'req_stale', -301);
    await expect(kit.verifyCall(stale.headers, stale.body)).rejects.toThrow(/clock skew/);
    // The platform rotates its key; 31 s later a call signed with the new key makes the kit read the keys again, once.
    current = generateKeyPairSync('ed25519');
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 31_000);
    try {
      const calls = Array.from({ length: 5 }, (_, i) => signed(current, `req_rotated_${i}`));
      await Promise.all(calls.map((c) => expect(kit.verifyCall(c.headers, c.body)).resolves.toBeDefined()));
      expect(hits).toBe(2);
    } finally {
      clock.mockRestore();
    }
  });

  it('takes only calls signed as calls to its own agent: not one for another agent, nor one signed with another label or subject', async () => {
    const kit = new AgentKit({
      platformUrl: `http://127.0.0.1:${(keysServer.address() as AddressInfo).port}`,
      agentId: AGENT,
    });
    const other = '11111111-2222-4333-8444-555555555555';
    const forOther = signed(current, 'req_other', 0, other);
    await expect(kit.verifyCall(forOther.headers, forOther.body)).rejects.toThrow(/not for agent/);
    // The body rewritten to name this agent no longer matches the signature.
    await expect(kit.verifyCall(forOther.headers, forOther.body.replace(other, AGENT))).rejects.toThrow(
      /not the platform's signature of a call/,
    );
    const body = JSON.stringify({ agentId: AGENT, requestId: 'req_label', capabilityId: 'c', input: {} });
    const digest = createHash('sha256').update(body).digest('hex');
    const t = Math.floor(Date.now() / 1000);
    const texts = [
      `agora-attestation.v2.${t}.req_label.${digest}`,
      `agora-callback.v2.${t}.req_label.${digest}`,
      `${t}.req_label.${digest}`,
      `agora-call.v2.${t}.${other}.req_label.${digest}`,
    ];
    for (const text of texts) {
      const header = `t=${t},ed25519=${sign(null, Buffer.from(text), current.privateKey).toString('base64')}`;
      await expect(kit.verifyCall({ 'x-agora-signature': header }, body)).rejects.toThrow(
        /not the platform's signature of a call/,
      );
    }
    const genuine = signed(current, 'req_label');
    await expect(kit.verifyCall(genuine.headers, genuine.body)).resolves.toMatchObject({
      agentId: AGENT,
      requestId: 'req_label',
    });
    expect(() => new AgentKit({ platformUrl: 'https://agora.example', agentId: 'not-an-id' })).toThrow(/agentId/);
  });
});
