/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the chain rows of the Limits table (spec §8) as resolutions §5 applies them to `chain: {budget?,
 * maxDepth?}` on a root execute: budget 0.01-1000 (default 10.00), maxDepth at most 5 (the default) and at most
 * the root agent's chain_max_depth, a token lifetime of 30 seconds. Validation runs before payment (spec §4
 * Execution rule 1): a refused chain is refused without a 402. This marketplace keeps the default durations.
 * (The leaderboard and discovery limits of the same table: analytics and discovery contract tests.)
 */
import { ChainAgent, chainAgent, decodeToken, openChain, setChainSettings, tokenOf } from './support/chains';
import { api, expectStatus, Reply } from './support/http';
import { Marketplace, startMarketplace } from './support/server';
import { newWallet, paymentHeader } from './support/wallets';

let m: Marketplace;
/** A chain root priced 0.01: its own cost is 0.011000 (11000 micro-USDC). */
let root: ChainAgent;
beforeAll(async () => {
  m = await startMarketplace();
  root = await chainAgent(m, '0.010000');
}, 120_000);
afterAll(async () => {
  await root?.server.close();
  await m?.stop();
});

const ROOT_COST = 11_000n;
const TOKEN_LIFETIME_MS = 30_000;

/** POST /execute opening a chain, unpaid. */
function unpaid(chain: Record<string, unknown>, target: ChainAgent = root): Promise<Reply> {
  return api(m, 'POST', '/api/v1/execute', {
    body: { targetAgentId: target.id, capabilityId: 'echo', input: {}, chain },
  });
}

/** What the 402 for opening `chain` asks, in micro-USDC. */
async function asked(chain: Record<string, unknown>): Promise<bigint> {
  const r = await unpaid(chain);
  expectStatus(r, 402, `chain ${JSON.stringify(chain)}:`);
  return BigInt(r.body.accepts[0].maxAmountRequired);
}

function expectValidationError(r: Reply, what: string): void {
  if (r.status !== 400) throw new Error(`${what}: expected 400 VALIDATION_ERROR, got ${r.status}: ${r.text}`);
  expect(r.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
}

describe('Limits', () => {
  it('takes a chain budget of 0.01 and of 1000: the payment asked is the root cost plus the budget', async () => {
    expect(await asked({ budget: '0.01' })).toBe(ROOT_COST + 10_000n);
    expect(await asked({ budget: '1000' })).toBe(ROOT_COST + 1_000_000_000n);
    expect(await asked({ budget: '1000.000000' })).toBe(ROOT_COST + 1_000_000_000n);
  });

  it.each(['0.009999', '0.001', '0', '-1', '1000.000001', '1000.01', '5000'])(
    'refuses a chain budget of %s with VALIDATION_ERROR (400), before payment',
    async (budget) => {
      const calls = root.server.calls.length;
      expectValidationError(await unpaid({ budget }), `budget ${budget}`);
      expect(root.server.calls.length).toBe(calls);
    },
  );

  it('takes maxDepth up to 5 and refuses 6 with VALIDATION_ERROR (400), before payment', async () => {
    for (const maxDepth of [1, 5]) expect(await asked({ budget: '1.00', maxDepth })).toBe(ROOT_COST + 1_000_000n);
    for (const maxDepth of [6, 10])
      expectValidationError(await unpaid({ budget: '1.00', maxDepth }), `maxDepth ${maxDepth}`);
  });

  it("refuses maxDepth above the root agent's chain_max_depth with 400; at it, the chain opens", async () => {
    const shallow = await chainAgent(m, '0.010000');
    try {
      await setChainSettings(m, shallow, { chain_max_depth: 2 });
      const payer = newWallet();
      const body = {
        targetAgentId: shallow.id,
        capabilityId: 'echo',
        input: {},
        chain: { budget: '1.00', maxDepth: 3 },
      };
      let r = await api(m, 'POST', '/api/v1/execute', { body });
      // A client pays when asked to; the refusal may come before or after the payment.
      if (r.status === 402) {
        const payment = await paymentHeader(payer, r.body.accepts[0]);
        r = await api(m, 'POST', '/api/v1/execute', { body, headers: { 'X-PAYMENT': payment } });
      }
      expect(r.status).toBe(400);
      expect(r.body.success).toBe(false);
      // The contract names no code for this refusal: a validation error or the depth limit.
      expect(['VALIDATION_ERROR', 'DEPTH_LIMIT']).toContain(r.body.error?.code);
      expect(shallow.server.calls).toHaveLength(0);
      const ok = await openChain(m, payer, shallow, { budget: '1.00', maxDepth: 2 });
      expectStatus(ok, 200, 'maxDepth = chain_max_depth:');
      expect(decodeToken(tokenOf(shallow.server.calls.at(-1)!)).md).toBe(2);
    } finally {
      await shallow.server.close();
    }
  });

  it('opens a chain without budget or maxDepth with the defaults: budget 10.00, max depth 5', async () => {
    const r = await openChain(m, newWallet(), root, {});
    expectStatus(r, 200, 'chain root with defaults:');
    expect(BigInt(r.accept.maxAmountRequired)).toBe(ROOT_COST + 10_000_000n);
    const token = decodeToken(tokenOf(root.server.calls.at(-1)!));
    expect(Number(token.tb)).toBe(10);
    expect(token.md).toBe(5);
  });

  it("gives chain tokens a lifetime of 30 seconds (the root agent's, and the childToken of an answer)", async () => {
    const before = Date.now();
    const r = await openChain(m, newWallet(), root, { budget: '1.00' });
    const after = Date.now();
    expectStatus(r, 200, 'chain root:');
    for (const token of [tokenOf(root.server.calls.at(-1)!), r.body.data.chain.childToken]) {
      const { exp } = decodeToken(token);
      // Minted between `before` and `after`, valid for 30 s from then.
      expect(exp).toBeGreaterThanOrEqual(before + TOKEN_LIFETIME_MS - 1000);
      expect(exp).toBeLessThanOrEqual(after + TOKEN_LIFETIME_MS + 1000);
    }
  });
});
