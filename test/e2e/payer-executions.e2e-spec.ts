import { Wallet } from 'ethers';
import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { consoleSession } from '../support/console-session';
import { clientSignature, paidExecute } from '../support/disputes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * A paying wallet's own executions (issue 36's buyer view): newest first by pages, for that wallet
 * only, with its signature or its console session; anyone else is refused.
 */
describe('payer executions (e2e)', () => {
  let env: ApiWithAgent;
  const buyer = newWallet();
  const other = newWallet();
  const mine: string[] = [];

  beforeAll(async () => {
    env = await startApiWithAgent({ EXECUTION_TIMEOUT_MS: '1000' });
    for (let i = 0; i < 3; i++) mine.push((await paidExecute(env.api, env.agentId, buyer, 11_000n)).requestId);
    const h = await x402Header(buyer, { amount: 11_000n, payTo: env.api.config.platformWallet });
    await env.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: env.agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: { [h.name]: h.value },
    });
    const [failed] = await env.ds.query(`SELECT id FROM executions WHERE lower(payer) = $1 AND status = 'failed'`, [
      buyer.address.toLowerCase(),
    ]);
    mine.push(failed.id);
    await paidExecute(env.api, env.agentId, other, 11_000n);
  });
  afterAll(() => env.stop());

  const list = (wallet: string, query: string, headers: Record<string, string>) =>
    env.api.request('GET', `/api/v1/payers/${wallet}/executions${query}`, { headers });

  it('with its signature, the wallet reads its own executions newest first, page by page', async () => {
    const auth = await clientSignature(buyer, buyer.address);
    const first = await list(buyer.address, '?limit=3', auth);
    expect(first.status).toBe(200);
    expect(first.body.data.executions).toHaveLength(3);
    const second = await list(buyer.address, `?limit=3&cursor=${first.body.data.next}`, auth);
    expect(second.body.data.executions).toHaveLength(1);
    expect(second.body.data.next).toBeNull();
    const ids = [...first.body.data.executions, ...second.body.data.executions].map(
      (e: { requestId: string }) => e.requestId,
    );
    const expected = await env.ds.query(
      `SELECT id FROM executions WHERE lower(payer) = $1 ORDER BY created_at DESC, id DESC`,
      [buyer.address.toLowerCase()],
    );
    expect(ids).toEqual(expected.map((r: { id: string }) => r.id));
    expect(ids.sort()).toEqual([...mine].sort());
    const failed = [...first.body.data.executions, ...second.body.data.executions].find(
      (e: { status: string }) => e.status === 'failed',
    );
    expect(failed).toMatchObject({ transactionId: null });
    const paid = first.body.data.executions.find((e: { status: string }) => e.status === 'completed');
    expect(paid).toMatchObject({ total: '0.011000', capabilityId: 'translate', hasReceipt: true });
  });

  it('with its console session too; another wallet, its signature or its session, is refused', async () => {
    const session = (w: Wallet) => consoleSession(env.api, w);
    expect((await list(buyer.address, '', { cookie: await session(buyer) })).body.data.executions).toHaveLength(4);
    expect((await list(buyer.address, '', { cookie: await session(other) })).status).toBe(403);
    expect((await list(buyer.address, '', await clientSignature(other, other.address))).status).toBe(403);
    expect(
      (await list(buyer.address, '', await clientSignature(other, buyer.address, { claimed: buyer.address }))).status,
    ).toBe(403);
    const stale = await clientSignature(buyer, buyer.address, { timestampMs: Date.now() - 3_600_000 });
    expect((await list(buyer.address, '', stale)).status).toBe(401);
    expect((await list(buyer.address, '', {})).status).toBe(401);
  });

  it('bad wallets, limits and cursors are refused in the envelope', async () => {
    const auth = await clientSignature(buyer, buyer.address);
    for (const [path, query] of [
      ['nope', ''],
      [buyer.address, '?limit=0'],
      [buyer.address, '?limit=101'],
      [buyer.address, '?cursor=bm90LWpzb24'],
    ])
      expect((await list(path, query, auth)).body.error.code).toBe('VALIDATION_ERROR');
  });
});
