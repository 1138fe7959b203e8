/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document). Never edit a contract test to follow the code: a change to the contract is
 * a decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * Area: the x402 wire format (resolutions §2, x402.md): the 402 body and its v2 PAYMENT-REQUIRED header, the
 * X-PAYMENT-RESPONSE / PAYMENT-RESPONSE headers, a v2 PAYMENT-SIGNATURE payment, and the checks before any work.
 */
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, paid } from './support/http';
import { capability, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import {
  Accept,
  decodePaymentRequired,
  decodePaymentResponse,
  newWallet,
  paymentHeader,
  paymentHeaderV2,
  PaymentOptions,
} from './support/wallets';

let m: Marketplace;
let agent: AgentServer;
let agentId: string;
const price = (basePrice: string) => ({ model: 'per-request', basePrice, currency: 'USDC' });
const body = (capabilityId = 'c10') => ({ targetAgentId: agentId, capabilityId, input: { q: 1 } });
const unpaid = (b = body()) => api(m, 'POST', '/api/v1/execute', { body: b });
const nowS = () => Math.floor(Date.now() / 1000);
const BASE_SEPOLIA_USDC = '0x036CbD53842c5426634e7929541eC2318f3dCF7e';

beforeAll(async () => {
  m = await startMarketplace();
  agent = await startAgentServer();
  const capabilities = [
    capability({ id: 'c10', name: 'Ten', pricing: price('0.010000') }),
    capability({ id: 'c1005', name: 'Odd', pricing: price('1.005') }),
    capability({ id: 'c1micro', name: 'Tiny', pricing: price('0.000001') }),
  ];
  agentId = (await registerAgent(m, newWallet(), { capabilities, endpoints: { execution: agent.url } })).id;
}, 120_000);
afterAll(async () => {
  await agent?.close();
  await m?.stop();
});

describe('The 402 response', () => {
  it('answers an unpaid execute 402 with the envelope and x402Version 1 and accepts[] at the top level', async () => {
    const r = await unpaid();
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({
      success: false,
      error: { code: 'PAYMENT_REQUIRED', message: expect.any(String) },
      x402Version: 1,
      accepts: expect.any(Array),
    });
    expect(r.body.accepts.length).toBeGreaterThan(0);
  });

  it('makes every accepts[] entry strict enough for the v1 client', async () => {
    const r = await unpaid();
    for (const a of r.body.accepts as Accept[]) {
      expect(a.scheme).toBe('exact');
      expect(['base', 'base-sepolia']).toContain(a.network);
      expect(new URL(a.resource).protocol).toMatch(/^https?:$/);
      expect(a.mimeType).toBe('application/json');
      expect(a.outputSchema === undefined || (typeof a.outputSchema === 'object' && a.outputSchema !== null)).toBe(
        true,
      );
      expect(a.extra).toMatchObject({ name: expect.any(String), version: '2' });
      expect(a.maxTimeoutSeconds).toBe(300);
      expect(a.payTo).toMatch(/^0x[0-9a-fA-F]{40}$/);
      expect(a.asset).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
    // Tests run with PAYMENT_NETWORKS=base-sepolia in local mode: base-sepolia's real USDC ("USDC", x402.md §2.2).
    expect(r.body.accepts[0]).toMatchObject({ network: 'base-sepolia', extra: { name: 'USDC', version: '2' } });
    expect(r.body.accepts[0].asset.toLowerCase()).toBe(BASE_SEPOLIA_USDC.toLowerCase());
  });

  it.each([
    ['c10', '11000'],
    ['c1005', '1006000'],
    ['c1micro', '1001'],
  ])('asks for the exact atomic amount (platform fee + price) of %s: %s', async (cap, atomic) => {
    const r = await unpaid(body(cap));
    expect(r.body.accepts[0].maxAmountRequired).toBe(atomic);
  });

  it('sends the v2 PAYMENT-REQUIRED header: base64 JSON, x402Version 2, CAIP-2 networks, the same terms', async () => {
    const r = await unpaid(body('c1005'));
    const header = r.headers.get('payment-required');
    expect(header).toMatch(/^[A-Za-z0-9+/]+=*$/);
    const v2 = decodePaymentRequired(header!);
    expect(v2.x402Version).toBe(2);
    expect(new URL(v2.resource!.url).protocol).toMatch(/^https?:$/);
    expect(v2.accepts.length).toBeGreaterThan(0);
    for (const a of v2.accepts) {
      expect(a.network).toMatch(/^eip155:\d+$/);
      expect(a).toMatchObject({ scheme: 'exact', amount: '1006000', extra: { version: '2' } });
    }
    const sepolia = v2.accepts.find((a) => a.network === 'eip155:84532');
    expect(sepolia).toMatchObject({ payTo: r.body.accepts[0].payTo, extra: { name: 'USDC' } });
    expect(sepolia!.asset.toLowerCase()).toBe(BASE_SEPOLIA_USDC.toLowerCase());
  });
});

describe('X-PAYMENT-RESPONSE', () => {
  it('answers a paid X-PAYMENT with X-PAYMENT-RESPONSE: base64 JSON {success, transaction, network, payer}', async () => {
    const payer = newWallet();
    const r = await paid(m, 'POST', '/api/v1/execute', body(), payer);
    expectStatus(r, 200, 'paid execute:');
    const settlement = decodePaymentResponse(r.headers.get('x-payment-response'));
    expect(settlement).toMatchObject({ success: true, network: 'base-sepolia' });
    expect(String(settlement.payer).toLowerCase()).toBe(payer.address.toLowerCase());
    const read = await api(m, 'GET', `/api/v1/execute/${r.body.data.requestId}`, {
      headers: { 'X-PAYMENT': r.payment },
    });
    expect(settlement.transaction).toBe(read.body.data.settlement.txHash);
  });
});

describe('x402 v2', () => {
  it('takes a PAYMENT-SIGNATURE built from the PAYMENT-REQUIRED header and answers PAYMENT-RESPONSE', async () => {
    const payer = newWallet();
    const required = decodePaymentRequired((await unpaid()).headers.get('payment-required')!);
    const accepted = required.accepts.find((a) => a.network === 'eip155:84532')!;
    // The v2 reference client signs validAfter 0 (x402.md §4), which must be accepted.
    const signature = await paymentHeaderV2(payer, accepted, { resource: required.resource, validAfter: 0 });
    const r = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'PAYMENT-SIGNATURE': signature } });
    expectStatus(r, 200, 'v2 payment:');
    expect(r.body.data.status).toBe('completed');
    const settlement = decodePaymentResponse(r.headers.get('payment-response'));
    expect(settlement).toMatchObject({ success: true, transaction: expect.any(String), network: accepted.network });
    expect(String(settlement.payer).toLowerCase()).toBe(payer.address.toLowerCase());
  });
});

describe('Checks before any work', () => {
  async function refused(payment: string) {
    const calls = agent.calls.length;
    const r = await api(m, 'POST', '/api/v1/execute', { body: body(), headers: { 'X-PAYMENT': payment } });
    expect(agent.calls.length).toBe(calls);
    expect(r.status).toBe(402);
    expect(r.body).toMatchObject({ success: false, error: { code: 'PAYMENT_INVALID' }, x402Version: 1 });
    return r.body.error.details?.reason;
  }
  const signed = async (opts: PaymentOptions) => paymentHeader(newWallet(), (await unpaid()).body.accepts[0], opts);

  it('refuses validBefore earlier than now + 6 s', async () => {
    const reason = await refused(await signed({ validBefore: nowS() + 3 }));
    expect(reason).toBe('invalid_exact_evm_payload_authorization_valid_before');
  });

  it('refuses validAfter in the future', async () => {
    const reason = await refused(await signed({ validAfter: nowS() + 120 }));
    expect(reason).toBe('invalid_exact_evm_payload_authorization_valid_after');
  });

  it('refuses an authorization signed by another wallet than its from', async () => {
    const accept = (await unpaid()).body.accepts[0];
    const forged = JSON.parse(Buffer.from(await paymentHeader(newWallet(), accept), 'base64').toString('utf8'));
    forged.payload.authorization.from = newWallet().address;
    const reason = await refused(Buffer.from(JSON.stringify(forged)).toString('base64'));
    expect(reason).toBe('invalid_exact_evm_payload_signature');
  });

  it('refuses a signature under the wrong EIP-712 domain name', async () => {
    const reason = await refused(await signed({ domainName: 'USD Coin' }));
    expect(reason).toBe('invalid_exact_evm_payload_signature');
  });

  it('refuses `to` other than payTo', async () => {
    const reason = await refused(await signed({ to: newWallet().address }));
    expect(reason).toBe('invalid_exact_evm_payload_recipient_mismatch');
  });

  it.each([
    ['less', '10999'],
    ['more', '11001'],
  ])('refuses a value %s than the amount due', async (_what, value) => {
    const reason = await refused(await signed({ value }));
    expect(reason).toBe('invalid_exact_evm_payload_authorization_value');
  });

  it('answers every refusal with the offer again (accepts[] and PAYMENT-REQUIRED)', async () => {
    const r = await api(m, 'POST', '/api/v1/execute', {
      body: body(),
      headers: { 'X-PAYMENT': await signed({ to: newWallet().address }) },
    });
    expect(r.status).toBe(402);
    expect(r.body.accepts[0]).toMatchObject({ maxAmountRequired: '11000', scheme: 'exact' });
    expect(decodePaymentRequired(r.headers.get('payment-required')!).x402Version).toBe(2);
  });
});
