import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { formatSignInMessage, PruneUsedAuthMessages, SignInFields } from '@app/auth';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';

/**
 * Signing in to the console (issue 36): an EIP-4361 message for this origin, signed by the agent's
 * wallet or any paying wallet, becomes a read session in an HTTP-only, same-site cookie; nonces
 * are used once, another wallet cannot sign in as the agent, expired and revoked sessions are
 * refused, and a cross-site form post does nothing.
 */
describe('console sign-in (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let origin: URL;
  let agentId: string;
  const owner = newWallet();
  const buyer = newWallet();

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    origin = new URL(api.config.publicBaseUrl);
    const res = await registerAgent(api, owner, {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const nonce = async () => (await api.request('POST', '/api/v1/console/nonce')).body.data.nonce as string;
  async function message(wallet: Wallet, over: Partial<SignInFields> = {}): Promise<string> {
    const now = Date.now();
    return formatSignInMessage({
      domain: origin.host,
      address: wallet.address,
      statement: 'Sign in to the agora console to read my agent',
      uri: origin.origin,
      version: '1',
      chainId: 84532,
      nonce: await nonce(),
      issuedAt: new Date(now),
      expirationTime: new Date(now + 30 * 60_000),
      resources: [`agora:agent:${agentId}`],
      ...over,
    });
  }
  const signIn = async (msg: string, wallet: Wallet, headers: Record<string, string> = { origin: origin.origin }) =>
    api.request('POST', '/api/v1/console/sessions', {
      body: { message: msg, signature: await wallet.signMessage(msg) },
      headers,
    });
  const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')!.split(';')[0];
  const me = (cookie: string) => api.request('GET', '/api/v1/console/session', { headers: { cookie } });

  it('the owner signs in as the agent: an HTTP-only, same-site session cookie that reads as the agent', async () => {
    const res = await signIn(await message(owner), owner);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ wallet: owner.address.toLowerCase(), agentId, current: true });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^agora_session=[A-Za-z0-9_-]{43}; Path=\/; Expires=.+; HttpOnly; SameSite=Strict$/);
    expect(Date.parse(/Expires=([^;]+)/.exec(setCookie)![1])).toBe(
      Math.floor(Date.parse(res.body.data.expiresAt) / 1000) * 1000,
    );
    const read = await me(cookieOf(res));
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({ id: res.body.data.id, agentId });
  });

  it('a buyer signs in as a wallet; another wallet cannot sign in as the agent', async () => {
    const asWallet = await signIn(await message(buyer, { resources: ['agora:wallet'] }), buyer);
    expect(asWallet.status).toBe(201);
    expect(asWallet.body.data).toMatchObject({ wallet: buyer.address.toLowerCase(), agentId: null });
    const intruder = await signIn(await message(buyer), buyer);
    expect(intruder.status).toBe(403);
    expect(intruder.body.error.details.reason).toBe('not_agent_wallet');
    // Someone else's signature on the owner's message.
    const msg = await message(owner);
    const forged = await api.request('POST', '/api/v1/console/sessions', {
      body: { message: msg, signature: await buyer.signMessage(msg) },
      headers: { origin: origin.origin },
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error.details.reason).toBe('signature');
  });

  it('a sign-in message is used once, for this origin only, for at most an hour, with a nonce this server gave', async () => {
    const msg = await message(owner);
    expect((await signIn(msg, owner)).status).toBe(201);
    const again = await signIn(msg, owner);
    expect(again.status).toBe(401);
    expect(again.body.error.details.reason).toBe('nonce_used');
    const now = Date.now();
    for (const [over, reason] of [
      [{ domain: 'evil.example' }, 'wrong_origin'],
      [{ uri: 'https://evil.example' }, 'wrong_origin'],
      [{ issuedAt: new Date(now - 2 * 3_600_000), expirationTime: new Date(now - 3_600_000) }, 'expired'],
      [{ expirationTime: new Date(now + 2 * 3_600_000) }, 'too_long'],
      [{ expirationTime: undefined }, 'expired'],
      [{ nonce: 'abcdefgh12345678' }, 'nonce'],
      [{ resources: ['agora:admin'] }, 'grant'],
      [{ resources: [`agora:agent:${agentId}`, 'agora:wallet'] }, 'grant'],
    ] as [Partial<SignInFields>, string][]) {
      const res = await signIn(await message(owner, over), owner);
      expect({ over, status: res.status, reason: res.body.error?.details?.reason }).toEqual({
        over,
        status: 401,
        reason,
      });
    }
    // Not EIP-4361 at all: refused (a NUL byte already at the edge, 400).
    expect((await signIn('hello world', owner)).body.error.details.reason).toBe('malformed');
    expect((await signIn('hello\0world', owner)).status).toBe(400);
  });

  it('a cross-site form post signs nobody in, and a cross-site revoke revokes nothing', async () => {
    const msg = await message(owner);
    for (const headers of [{ origin: 'https://evil.example' }, {}, { origin: 'null' }] as Record<string, string>[]) {
      const res = await api.request('POST', '/api/v1/console/sessions', {
        raw: new URLSearchParams({ message: msg, signature: await owner.signMessage(msg) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('set-cookie')).toBeNull();
      // The same request as JSON from another origin (or none): refused for where it comes from.
      const json = await signIn(msg, owner, headers);
      expect({ status: json.status, reason: json.body.error.details?.reason }).toEqual({
        status: 403,
        reason: 'cross_origin',
      });
      expect(json.headers.get('set-cookie')).toBeNull();
    }
    // The same message still signs in from the console's origin: nothing consumed its nonce.
    const ok = await signIn(msg, owner);
    expect(ok.status).toBe(201);
    const cookie = cookieOf(ok);
    const cross = await api.request('DELETE', `/api/v1/console/sessions/${ok.body.data.id}`, {
      headers: { cookie, origin: 'https://evil.example' },
    });
    expect(cross.status).toBe(403);
    expect((await me(cookie)).status).toBe(200);
  });

  it('the sessions list shows the wallet’s sessions; a revoked one is refused; another wallet’s cannot be revoked', async () => {
    const first = await signIn(await message(owner), owner);
    const second = await signIn(await message(owner), owner);
    const buyerSession = await signIn(await message(buyer, { resources: ['agora:wallet'] }), buyer);
    const list = await api.request('GET', '/api/v1/console/sessions', { headers: { cookie: cookieOf(second) } });
    expect(list.status).toBe(200);
    const ids = list.body.data.sessions.map((s: { id: string }) => s.id);
    expect(ids).toEqual(expect.arrayContaining([first.body.data.id, second.body.data.id]));
    expect(ids).not.toContain(buyerSession.body.data.id);
    expect(
      list.body.data.sessions.filter((s: { current: boolean }) => s.current).map((s: { id: string }) => s.id),
    ).toEqual([second.body.data.id]);
    const del = (id: string, cookie: string) =>
      api.request('DELETE', `/api/v1/console/sessions/${id}`, { headers: { cookie, origin: origin.origin } });
    expect((await del(buyerSession.body.data.id, cookieOf(second))).status).toBe(404);
    expect((await me(cookieOf(buyerSession))).status).toBe(200);
    expect((await del(first.body.data.id, cookieOf(second))).status).toBe(204);
    expect((await me(cookieOf(first))).status).toBe(401);
    // Revoking its own session signs out: the cookie is cleared too.
    const out = await del(second.body.data.id, cookieOf(second));
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^agora_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
    expect((await me(cookieOf(second))).status).toBe(401);
  });

  it('an expired session is refused, as are a made-up or missing cookie', async () => {
    const res = await signIn(await message(owner), owner);
    await api.app
      .get(DataSource)
      .query(`UPDATE console_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`, [res.body.data.id]);
    expect((await me(cookieOf(res))).status).toBe(401);
    expect((await me('agora_session=madeup')).status).toBe(401);
    const none = await api.request('GET', '/api/v1/console/session');
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe('UNAUTHORIZED');
    // The worker's prune: a session ended over a day ago, and nonces past their expiry, are deleted.
    const ds = api.app.get(DataSource);
    await ds.query(`UPDATE console_sessions SET expires_at = now() - interval '25 hours' WHERE id = $1`, [
      res.body.data.id,
    ]);
    await ds.query(`UPDATE console_used_nonces SET expires_at = now() - interval '1 second'`);
    expect(await api.app.get(PruneUsedAuthMessages).execute()).toBeGreaterThanOrEqual(2);
    expect(await ds.query(`SELECT id FROM console_sessions WHERE id = $1`, [res.body.data.id])).toEqual([]);
    expect(await ds.query(`SELECT nonce FROM console_used_nonces`)).toEqual([]);
  });
});
