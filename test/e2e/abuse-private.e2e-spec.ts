import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { formatSignInMessage } from '@app/auth';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { waitFor } from '../support/processes';
import { newWallet, walletHeaders } from '../support/wallets';

const READS_PER_MIN = 4;
const SECRET_URL = 'https://hooks.example.com:8443/t/9f1c0a5e2b7d4c36/agora?token=tok_live_5Jc8q2Xv';

/**
 * Issue 52, "private where it matters", as an attacker tries it: an agent's webhook URLs (tokens in
 * their paths and queries) read by a stranger, and the per-IP read window dodged by walking the
 * addresses of one IPv6 /64, and a console sign-in nonce minted offline with the chain-token seed.
 */
describe('abuse: what an agent keeps to itself, and one host behind many IPv6 addresses (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let owner: Wallet;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_READS_PER_MIN: String(READS_PER_MIN),
    });
    owner = newWallet();
    agentId = (
      await registerAgent(api, owner, {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload()],
      })
    ).body.data.id;
    const created = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: SECRET_URL, events: ['execution.completed'] },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks'),
    });
    expect(created.status).toBe(201);
    expect(created.body.data.url).toBe(SECRET_URL);
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  // Each test reads from its own addresses: the read window is per address and minute.
  let subnet = 0;
  const fresh = () => `2001:db8:${(++subnet).toString(16)}:${(Date.now() % 65_536).toString(16)}`;
  const list = (ip: string, headers: Record<string, string> = {}) =>
    api.request('GET', `/api/v1/webhooks/agent/${agentId}`, { headers: { 'X-Forwarded-For': ip, ...headers } });

  it("a stranger's read keeps the list's shape but shows each URL as its origin only: no path, no query", async () => {
    const r = await list(`${fresh()}::1`);
    expect(r.status).toBe(200);
    expect(r.body.data.total).toBe(1);
    const [w] = r.body.data.webhooks;
    expect(w).toMatchObject({ agentId, url: 'https://hooks.example.com:8443/', status: 'active' });
    expect(new URL(w.url).origin).toBe('https://hooks.example.com:8443');
    expect(JSON.stringify(r.body)).not.toContain('9f1c0a5e2b7d4c36');
    expect(JSON.stringify(r.body)).not.toContain('tok_live_5Jc8q2Xv');
  });

  it("another agent's wallet signature reads nothing more: 403, and its own proof names its own agent", async () => {
    const stranger = newWallet();
    const strangerId = (await registerAgent(api, stranger, { endpoints: { execution: agentServer.url } })).body.data
      .id as string;
    const path = `GET /api/v1/webhooks/agent/${agentId}`;
    const r = await list(`${fresh()}::1`, await walletHeaders(stranger, strangerId, path));
    expect(r.status).toBe(403);
    expect(JSON.stringify(r.body)).not.toContain('tok_live_5Jc8q2Xv');
    // The agent's id in the message with the stranger's wallet: not the agent's wallet.
    const forged = await list(`${fresh()}::1`, {
      ...(await walletHeaders(stranger, agentId, path)),
      'X-Agent-Wallet': owner.address,
    });
    expect(forged.status).toBe(403);
    expect(JSON.stringify(forged.body)).not.toContain('tok_live_5Jc8q2Xv');
  });

  it("the agent's own signature (bound or the contract's unbound form) reads every URL whole", async () => {
    for (const action of [`GET /api/v1/webhooks/agent/${agentId}`, null]) {
      const r = await list(`${fresh()}::1`, await walletHeaders(owner, agentId, action));
      expect(r.status).toBe(200);
      expect(r.body.data.webhooks[0].url).toBe(SECRET_URL);
    }
  });

  it('per-IP windows key IPv6 by its /64: a new address of the same /64 is no new window', async () => {
    await waitFor(async () => Date.now() % 60_000 < 45_000, 'the start of a minute', 20_000);
    const net = fresh();
    const answers: number[] = [];
    for (let host = 1; host <= READS_PER_MIN + 2; host++)
      answers.push((await list(`${net}::${host.toString(16)}`)).status);
    expect(answers).toEqual([...new Array(READS_PER_MIN).fill(200), 429, 429]);
    // Another /64 has its own window.
    expect((await list(`${fresh()}::1`)).status).toBe(200);
  });

  it('an IPv4 client seen through a dual-stack socket (::ffff:a.b.c.d) counts in its IPv4 window', async () => {
    await waitFor(async () => Date.now() % 60_000 < 45_000, 'the start of a minute', 20_000);
    const v4 = `198.51.100.${(Date.now() % 200) + 1}`;
    const answers: number[] = [];
    for (let i = 0; i < READS_PER_MIN + 1; i++) answers.push((await list(i % 2 ? `::ffff:${v4}` : v4)).status);
    expect(answers).toEqual([...new Array(READS_PER_MIN).fill(200), 429]);
  });

  it('a sign-in nonce minted with the chain-token seed is refused; the nonces have a key of their own', async () => {
    const origin = new URL(api.config.publicBaseUrl);
    const signIn = async (nonce: string) => {
      const now = Date.now();
      const message = formatSignInMessage({
        domain: origin.host,
        address: owner.address,
        statement: 'Sign in to the agora console',
        uri: origin.origin,
        version: '1',
        chainId: 84532,
        nonce,
        issuedAt: new Date(now),
        expirationTime: new Date(now + 30 * 60_000),
        resources: [`agora:agent:${agentId}`],
      });
      return api.request('POST', '/api/v1/console/sessions', {
        body: { message, signature: await owner.signMessage(message) },
        headers: { origin: origin.origin, 'X-Forwarded-For': `${fresh()}::1` },
      });
    };
    // The old key: derived from the chain-token seed (public in development, CHAIN_TOKEN_SEEDS in production).
    const oldKey = createHash('sha256').update(`agora-console-sign-in:${api.config.chainTokenSeeds[0]}`).digest();
    const body = `${(Date.now() + 300_000).toString(36)}X${randomBytes(8).toString('hex')}`;
    const minted = `${body}${createHmac('sha256', oldKey).update(body).digest('hex').slice(0, 24)}`;
    const refused = await signIn(minted);
    expect(refused.status).toBe(401);
    expect(refused.body.error.details).toMatchObject({ reason: 'nonce' });
    const [secret] = await api.app
      .get(DataSource)
      .query(`SELECT secret FROM platform_secrets WHERE name = 'console-sign-in'`);
    expect(secret.secret).toHaveLength(32);
    expect(Buffer.compare(secret.secret, oldKey)).not.toBe(0);
    // A nonce the server hands out signs in.
    const given = (await api.request('POST', '/api/v1/console/nonce')).body.data.nonce as string;
    expect((await signIn(given)).status).toBe(201);
  });
});
