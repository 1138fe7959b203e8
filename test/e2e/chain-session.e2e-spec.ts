import { createPublicKey, verify } from 'node:crypto';
import { ChainSessions, CALL_COST, claimsOf, ROOT_COST, startChainSessions, usdc } from '../support/chain-session';
import { waitFor } from '../support/processes';

const TTL_S = 3;

/**
 * The chain root's caller keeps using the budget it prepaid (issue 34): the root's answer carries a
 * token of the caller's own, each call made with it answers a fresh one, and the chain closes (its
 * unspent budget refunded) once nothing runs and no such token is valid, or when the caller closes it.
 */
describe('a chain held open by its root caller (e2e)', () => {
  let s: ChainSessions;
  beforeAll(async () => {
    s = await startChainSessions(TTL_S);
  });
  afterAll(() => s.stop());

  it("hands the root's caller a signed token; three calls with successive tokens spend exactly their cost; the chain closes once the last token expires and refunds the rest", async () => {
    const before = Date.now();
    const { data, payer } = await s.openChain('1.00');
    const chainId = data.chain.chainId;
    expect(data.chain).toEqual({ chainId, depth: 0, remainingBudget: '1.000000', childToken: expect.any(String) });
    // The token: this chain, its depth bound and budget, the root agent as the parent of its calls, the payer's.
    let token: string = data.chain.childToken;
    const claims = claimsOf(token);
    expect(claims).toMatchObject({
      cid: chainId,
      d: 0,
      md: expect.any(Number),
      tb: '1.000000',
      rb: '1.000000',
      pa: s.orchestratorId,
      rw: payer.address.toLowerCase(),
      path: [s.orchestratorId],
      ptx: data.requestId,
      cl: true,
    });
    expect(claims.exp).toBeGreaterThan(Date.now());
    expect(claims.exp).toBeLessThanOrEqual(Date.now() + TTL_S * 1000);
    expect(claims.exp).toBeGreaterThanOrEqual(before);
    const { keys } = (await s.api.request('GET', '/api/v1/chains/keys')).body.data;
    const [payload, signature] = token.split('.');
    const key = createPublicKey({ key: keys[0].jwk, format: 'jwk' });
    expect(verify(null, Buffer.from(payload), key, Buffer.from(signature, 'base64url'))).toBe(true);

    // Three calls, each with the token the previous answer handed back: depth 1, the budget down by exactly each cost.
    let lastExp = claims.exp as number;
    const exps = [lastExp];
    for (const [i, text] of ['one', 'two', 'three'].entries()) {
      const res = await s.call(token, text);
      expect(res.status).toBe(200);
      expect(res.body.data.output).toEqual({ translation: text.toUpperCase() });
      const left = usdc(1_000_000n - CALL_COST * BigInt(i + 1));
      expect(res.body.data.chain).toEqual({ chainId, depth: 1, remainingBudget: left, childToken: expect.any(String) });
      token = res.body.data.chain.childToken;
      expect(claimsOf(token)).toMatchObject({ cid: chainId, d: 0, rb: left, cl: true, ptx: data.requestId });
      expect(claimsOf(token).exp).toBeGreaterThanOrEqual(lastExp);
      lastExp = claimsOf(token).exp;
      exps.push(lastExp);
    }

    // The chain's delayed checks: one per second in which a handed-out token expires, not one per call
    // (a session calling all the time would pile them up), each due on the whole second after its expiry.
    const { default: Redis } = await import('ioredis');
    const redis = new Redis(s.api.config.redisUrl);
    const delayed = await redis.zrange(`${s.api.config.queuePrefix}:money:delayed`, 0, -1);
    await redis.quit();
    const seconds = new Set(exps.map((e) => Math.ceil(e / 1000) * 1000));
    expect(delayed.filter((id) => id.startsWith(`chain_finish-${chainId}`)).sort()).toEqual(
      [...seconds].sort().map((at) => `chain_finish-${chainId}-${at}`),
    );

    // Open while the last token is valid: nothing runs, every node succeeded, nothing refunded yet.
    const open = await s.api.request('GET', `/api/v1/chains/${chainId}`, { headers: { 'x-chain-token': token } });
    expect(open.status).toBe(200);
    expect(open.body.data).toMatchObject({
      status: 'completed',
      nodeCount: 4,
      remainingBudget: '0.967000',
      totalCost: usdc(ROOT_COST + 3n * CALL_COST),
      completedAt: null,
      closesAt: new Date(lastExp).toISOString(),
      rootRequestId: data.requestId,
    });
    expect(open.body.data.refund).toBeUndefined();
    expect(open.body.data.tree.children.map((c: { depth: number }) => c.depth)).toEqual([1, 1, 1]);
    const held = await s.chainRow(chainId);
    expect(held).toMatchObject({ status: 'running', refunded: null });
    expect(new Date(held.heldUntil).getTime()).toBe(lastExp);

    // Closed by the worker once the token expired: the rest refunded to the payer and paid.
    const closed = await waitFor(async () => {
      const c = await s.chainRow(chainId);
      return c.status === 'completed' ? c : null;
    }, 'the chain to close');
    expect(closed).toMatchObject({ refunded: '967000', available: '0' });
    const shown = (await s.api.request('GET', `/api/v1/chains/${chainId}`)).body.data;
    expect(shown.refund).toMatchObject({ amount: '0.967000' });
    expect(new Date(shown.completedAt).getTime()).toBeGreaterThanOrEqual(lastExp);
    expect(shown.closesAt).toBe(shown.completedAt);
    await waitFor(
      async () =>
        (
          await s.ds.query(
            `SELECT 1 FROM refunds WHERE wallet = $1 AND reason = 'chain_unspent' AND status = 'completed'`,
            [payer.address.toLowerCase()],
          )
        ).length === 1,
      'the refund to be paid',
    );
    // A call after closing is refused (the last token has expired too), and nothing entered.
    const late = await s.call(token, 'late');
    expect(late.status).toBe(401);
    expect(late.body.error.code).toBe('CHAIN_TOKEN_EXPIRED');
    expect(await s.nodes(chainId)).toBe(4);
    expect(await s.invariants()).toEqual([]);
  });

  it("the root's caller closes the chain at once: its refund before the answer, its still-valid tokens refused after; nobody else may close it", async () => {
    const { data, payer } = await s.openChain('0.50');
    const chainId = data.chain.chainId;
    const first = await s.call(data.chain.childToken, 'one');
    expect(first.status).toBe(200);
    const token = first.body.data.chain.childToken;
    const other = await s.openChain('0.20');
    const agentToken = String(
      s.orchestrator.state.calls.find((c) => c.json.requestId === data.requestId)!.headers['x-chain-token'],
    );

    const close = (t?: string) =>
      s.api.request('POST', `/api/v1/chains/${chainId}/close`, t ? { headers: { 'x-chain-token': t } } : {});
    for (const [t, status, code] of [
      [undefined, 401, 'UNAUTHORIZED'],
      [agentToken, 403, 'FORBIDDEN'],
      [other.data.chain.childToken, 403, 'FORBIDDEN'],
      [`${token.slice(0, -4)}AAAA`, 401, 'CHAIN_TOKEN_INVALID'],
    ] as const) {
      const res = await close(t);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status, code });
    }
    expect((await s.chainRow(chainId)).status).toBe('running');

    const res = await close(token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      chainId,
      status: 'completed',
      remainingBudget: '0.000000',
      refund: { amount: usdc(500_000n - CALL_COST) },
      completedAt: expect.any(String),
    });
    expect(await s.chainRow(chainId)).toMatchObject({ status: 'completed', refunded: String(500_000n - CALL_COST) });
    // The token is still within its expiry, and is refused: the chain is closed.
    expect(claimsOf(token).exp).toBeGreaterThan(Date.now());
    const after = await s.call(token, 'after');
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe('CHAIN_NOT_FOUND');
    expect(await s.nodes(chainId)).toBe(2);
    // Closing again changes nothing: one refund.
    expect((await close(token)).body.data.refund).toEqual(res.body.data.refund);
    const refunds = await s.ds.query(
      `SELECT amount::text FROM refunds WHERE wallet = $1 AND reason = 'chain_unspent'`,
      [payer.address.toLowerCase()],
    );
    expect(refunds).toEqual([{ amount: String(500_000n - CALL_COST) }]);
    expect(await s.invariants()).toEqual([]);
  });

  it('ten parallel calls on one token never overspend: as many succeed as the budget covers, the rest are refused', async () => {
    const { data } = await s.openChain('0.06');
    const chainId = data.chain.chainId;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => s.call(data.chain.childToken, `p${i}`)));
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(5); // 5 x 0.011 <= 0.06 < 6 x 0.011
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual(Array(5).fill([402, 'BUDGET_EXCEEDED']));
    const closed = await s.api.request('POST', `/api/v1/chains/${chainId}/close`, {
      headers: { 'x-chain-token': ok[0].body.data.chain.childToken },
    });
    expect(closed.body.data).toMatchObject({
      status: 'completed',
      totalCost: usdc(ROOT_COST + 5n * CALL_COST),
      refund: { amount: usdc(60_000n - 5n * CALL_COST) },
    });
    expect(await s.invariants()).toEqual([]);
  });
});
