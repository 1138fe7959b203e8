import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { seedCharge } from '../support/money';
import { newWallet, signAuth, walletHeaders } from '../support/wallets';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Issue 51: both signed messages authorize a change. The contract's unbound `agora-auth:<agent>:<ms>`
 * works once, and never after it was presented on a read; the bound one names its request and,
 * optionally, the SHA-256 of its body, so an amount or a destination cannot be altered in flight.
 */
describe('Wallet auth: the unbound and the bound message (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  const owner = newWallet();
  let agentId: string;

  beforeAll(async () => {
    api = await startApi();
    ds = api.app.get(DataSource);
    agentId = (await registerAgent(api, owner)).body.data.id;
    await seedCharge(api.app, { agentId, agentFee: 3_000_000n, reputation: 90 }); // 2.85 available
  });
  afterAll(() => api.close());

  const patch = (name: string, headers: Record<string, string>) =>
    api.request('PATCH', `/api/v1/agents/${agentId}`, { body: { name }, headers });
  const nameNow = async () => (await api.request('GET', `/api/v1/agents/${agentId}`)).body.data.name;
  const history = (headers: Record<string, string>) =>
    api.request('GET', `/api/v1/payments/history/${agentId}`, { headers });

  it('an unbound message works once for a PATCH and is refused on a second change', async () => {
    const unbound = await walletHeaders(owner, agentId, null);
    const first = await patch('Renamed Once', unbound);
    expect([first.status, first.body.success]).toEqual([200, true]);
    expect(await nameNow()).toBe('Renamed Once');
    const again = await patch('Renamed Twice', unbound);
    expect([again.status, again.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const other = await api.request('DELETE', `/api/v1/agents/${agentId}`, { headers: unbound });
    expect([other.status, other.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect(await nameNow()).toBe('Renamed Once');
    expect((await api.request('GET', `/api/v1/agents/${agentId}`)).body.data.status).toBe('active');
  });

  it('an unbound message seen on GET /payments/history authorizes no change; reads reuse it', async () => {
    const ts = Date.now() + 10;
    const seen = await walletHeaders(owner, agentId, null, ts);
    expect((await history(seen)).status).toBe(200);
    // Recorded in Postgres before the read was answered (Redis is not the record).
    const rows = await ds.query(`SELECT agent_id FROM used_auth_messages WHERE message_key = $1`, [`${agentId}:${ts}`]);
    expect(rows).toEqual([{ agent_id: agentId }]);
    const change = await patch('After The Read', seen);
    expect([change.status, change.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    const withdraw = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.000000', destinationWallet: newWallet().address },
      headers: seen,
    });
    expect([withdraw.status, withdraw.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    expect((await history(seen)).status).toBe(200);
    expect(await nameNow()).not.toBe('After The Read');
    expect((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data.available).toBe('2.850000');
  });

  it('an unbound message is spent when presented on a change, even one that fails (nothing left to replay)', async () => {
    const unbound = await walletHeaders(owner, agentId, null, Date.now() + 50);
    // A withdrawal refused for its amount (over the balance): the message is spent all the same.
    const refused = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '500.000000', destinationWallet: owner.address },
      headers: unbound,
    });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'INSUFFICIENT_BALANCE']);
    const stolen = await api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId, amount: '1.000000', destinationWallet: newWallet().address },
      headers: unbound,
    });
    expect([stolen.status, stolen.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
    // Ten changes racing with one fresh unbound message: exactly one is taken.
    const racing = await walletHeaders(owner, agentId, null, Date.now() + 60);
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => patch(`Racer ${i}`, racing)));
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array<number>(9).fill(401)]);
    const balance = (await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data;
    expect(balance.totalWithdrawn).toBe('0.000000');
  });

  it('a bound message with a body hash takes that body and refuses an altered one', async () => {
    const body = JSON.stringify({ agentId, amount: '1.000000', destinationWallet: owner.address });
    const altered = JSON.stringify({ agentId, amount: '1.000000', destinationWallet: newWallet().address });
    const action = `POST /api/v1/payments/withdraw:${sha256(body)}`;
    const headers = {
      ...(await walletHeaders(owner, agentId, action, Date.now() + 20)),
      'content-type': 'application/json',
    };
    const tampered = await api.request('POST', '/api/v1/payments/withdraw', { raw: altered, headers });
    expect([tampered.status, tampered.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await ds.query(`SELECT count(*)::int AS n FROM withdrawals WHERE agent_id = $1`, [agentId]))[0].n).toBe(0);
    const sent = await api.request('POST', '/api/v1/payments/withdraw', { raw: body, headers });
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ amount: '1.000000', destinationWallet: owner.address, status: 'pending' });
    const replay = await api.request('POST', '/api/v1/payments/withdraw', { raw: body, headers });
    expect([replay.status, replay.body.error.code]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('a bound message without a body hash still works for its request only', async () => {
    const forPatch = await walletHeaders(owner, agentId, `PATCH /api/v1/agents/${agentId}`, Date.now() + 30);
    const wrongRoute = await api.request('DELETE', `/api/v1/agents/${agentId}`, { headers: forPatch });
    expect([wrongRoute.status, wrongRoute.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await patch('Bound Rename', forPatch)).status).toBe(200);
    expect(await nameNow()).toBe('Bound Rename');
    // A signature made over the unbound text cannot be passed off as the bound one, nor the reverse.
    const ts = Date.now() + 40;
    const unboundSig = (await signAuth(owner, agentId, ts)).split(':sig:')[1];
    const forged = { 'X-Agent-Wallet': owner.address };
    const asBound = `agora-auth:${agentId}:${ts}:PATCH /api/v1/agents/${agentId}:sig:${unboundSig}`;
    const res = await patch('Forged', { ...forged, 'X-Agent-Signature': asBound });
    expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect(await nameNow()).toBe('Bound Rename');
  });
});
