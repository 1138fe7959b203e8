import { Contract, Wallet } from 'ethers';
import { FaultInjector } from '@app/common';
import type { LocalChain } from '../../scripts/local-chain';
import type { ApiHarness } from '../support/api-harness';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { agentPayload, REGISTRATION_FEE_MICROS } from '../support/factories';
import { withClient } from '../support/test-db';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // the stack's agent's price with the platform fee
const TOKEN_ABI = [
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
];

/**
 * Review of 9591ab4 (high): EIP-3009 nonces are unique per signer, not per authorization. A payer signs
 * A (the price, to us) and B (1 micro-USDC to a wallet of its own) with the same nonce, pays with A, and
 * relays B once the api has checked A (here: at a fault point after the reservation). Our transfer of A
 * then fails ("authorization is used"), and the chain's AuthorizationUsed(payer, nonce) log names B's
 * transaction. That transaction moved nothing to us: it is never taken for A's settlement. The payment
 * is released at once, nothing is charged or created, and nothing is refunded.
 */
describe('faults: an authorization whose nonce the payer spent on another transfer is never settled (e2e)', () => {
  let stack: EvmStack;
  let chain: LocalChain;
  let api: ApiHarness;
  let faults: FaultInjector;

  beforeAll(async () => {
    stack = await startEvmStack({ SETTLEMENT_LEASE_MS: '2000', MAINTENANCE_INTERVAL_MS: '500' });
    ({ chain, api } = stack);
    faults = api.app.get(FaultInjector);
  }, 90_000);
  afterEach(() => faults.disarm());
  afterAll(() => stack?.stop());

  /** A (`amount` to us) and B (1 to `sink`, same nonce); B is relayed on chain when the api reaches `point`. */
  async function racedAt(point: string, payer: Wallet, amount: bigint) {
    const sink = newWallet();
    let relayed = '';
    const a = await x402Header(payer, { amount, payTo: chain.platform.address, asset: chain.usdcAddress });
    const b = await x402Header(payer, { amount: 1n, payTo: sink.address, asset: chain.usdcAddress, nonce: a.nonce });
    faults.onReach(point, async () => {
      const { authorization: x, signature } = JSON.parse(Buffer.from(b.value, 'base64').toString()).payload;
      const token = new Contract(chain.usdcAddress, TOKEN_ABI, chain.account(7).connect(chain.provider));
      const tx = await token.transferWithAuthorization(
        x.from,
        x.to,
        x.value,
        x.validAfter,
        x.validBefore,
        x.nonce,
        signature,
      );
      relayed = (await tx.wait()).hash;
    });
    return { a, sink, b: () => relayed };
  }
  const paymentOf = (payer: Wallet) =>
    withClient(api.databaseUrl, async (c) => {
      const r = await c.query(`SELECT status, ref_id, tx_hash FROM payments WHERE payer = $1`, [
        payer.address.toLowerCase(),
      ]);
      return r.rows;
    });

  it('registration: no agent, the fee released, nothing refunded', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, REGISTRATION_FEE_MICROS);
    const { a, sink, b } = await racedAt('registration.after-reserve', payer, REGISTRATION_FEE_MICROS);
    const res = await api.request('POST', '/api/v1/agents', {
      body: agentPayload(payer, { endpoints: { execution: stack.agentServer.url } }),
      headers: { [a.name]: a.value },
    });
    expect([res.status, res.body.error?.code, res.body.error?.details?.reason]).toEqual([
      502,
      'SETTLEMENT_FAILED',
      'authorization_used_elsewhere',
    ]);
    expect(await chain.balanceOf(sink.address)).toBe(1n); // B moved; A never can
    expect(await chain.balanceOf(payer.address)).toBe(REGISTRATION_FEE_MICROS - 1n);
    const [row] = await paymentOf(payer);
    expect(row).toMatchObject({ status: 'released', ref_id: null });
    expect(b()).toMatch(/^0x[0-9a-f]{64}$/);
    expect(row.tx_hash).not.toBe(b()); // B's transaction is never taken for A's settlement
    const agents = await withClient(api.databaseUrl, (c) =>
      c.query(`SELECT id FROM agents WHERE wallet = $1`, [payer.address.toLowerCase()]),
    );
    expect(agents.rows).toEqual([]);
  });

  it('execution: nothing charged, the output withheld, the payment released', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const { a, b } = await racedAt('charge.after-reserve', payer, PRICE);
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: stack.agentId, capabilityId: 'translate', input: { text: 'x' } },
      headers: { [a.name]: a.value },
    });
    expect(res.body.data?.output ?? null).toBeNull();
    const [row] = await paymentOf(payer);
    expect(row).toMatchObject({ status: 'released', ref_id: null });
    expect(row.tx_hash).not.toBe(b());
    const charged = await withClient(api.databaseUrl, (c) =>
      c.query(
        `SELECT count(*)::int AS n FROM transactions t JOIN executions e ON e.transaction_id = t.id WHERE e.payer = $1`,
        [payer.address.toLowerCase()],
      ),
    );
    expect(charged.rows[0].n).toBe(0);
    expect(await chain.balanceOf(payer.address)).toBe(PRICE - 1n);
  });
});
