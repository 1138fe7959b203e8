/*
 * Contract test. Written from the public contract only (the marketplace spec and its resolutions, as documented
 * in docs/ and the OpenAPI document), and the x402 ecosystem's own specifications, checked with their reference
 * library (@x402/extensions). Never edit a contract test to follow the code: a change to the contract is a
 * decision in docs/decisions.md, a new OpenAPI info.version and a CHANGELOG.md entry, and old clients keep
 * working for a deprecation period.
 *
 * The x402 extensions a client or a facilitator reads from a paid capability's 402 and its paid answer
 * (offer-receipt, Bazaar), and the marketplace's A2A card.
 */
import { extractDiscoveryInfo, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import {
  convertNetworkStringToCAIP2,
  extractOffersFromPaymentRequired,
  verifyReceiptSignatureEIP712,
  type SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { AgentServer, startAgentServer } from './support/agent-server';
import { api, expectStatus, paid } from './support/http';
import { capability, registerAgent } from './support/market';
import { Marketplace, startMarketplace } from './support/server';
import { decodePaymentRequired, decodePaymentResponse, newWallet } from './support/wallets';

let m: Marketplace;
/** The same kind of deployment signing its offers and receipts with EIP-712 (RECEIPT_FORMAT=eip712). */
let typed: Marketplace;
let agentServer: AgentServer;
const paths = new Map<Marketplace, string[]>();

async function twoCapabilities(on: Marketplace): Promise<string[]> {
  const out: string[] = [];
  for (const id of ['translate', 'summarize']) {
    const agent = await registerAgent(on, newWallet(), {
      capabilities: [capability({ id, name: id })],
      endpoints: { execution: agentServer.url },
    });
    out.push(`/api/v1/agents/${agent.id}/capabilities/${id}/execute`);
  }
  return out;
}

beforeAll(async () => {
  agentServer = await startAgentServer();
  m = await startMarketplace();
  typed = await startMarketplace({ env: { RECEIPT_FORMAT: 'eip712' } });
  paths.set(m, await twoCapabilities(m));
  paths.set(typed, await twoCapabilities(typed));
}, 180_000);
afterAll(async () => {
  await agentServer?.close();
  await Promise.all([m?.stop(), typed?.stop()]);
});

/** The v2 PAYMENT-REQUIRED of a capability's own paid route, asked without payment. */
async function required(on: Marketplace, path: string) {
  const r = await api(on, 'POST', path, { body: { text: 'hi' } });
  expectStatus(r, 402, `${path} without payment:`);
  return decodePaymentRequired(r.headers.get('payment-required')!) as any;
}

/** A v1 payment (X-PAYMENT, network base-sepolia) of a capability: the receipt in X-PAYMENT-RESPONSE. */
async function receiptOfV1(on: Marketplace, path: string): Promise<SignedReceipt> {
  const r = await paid(on, 'POST', path, { text: 'paid' }, newWallet());
  expectStatus(r, 200, `${path} paid:`);
  const response = decodePaymentResponse(r.headers.get('x-payment-response')) as any;
  return response.extensions['offer-receipt'].info.receipt;
}

describe('offer-receipt extension (x402 v2 core: every extension carries info and schema)', () => {
  it("a capability's 402 carries the offers' info and a schema that info satisfies", async () => {
    const v2 = await required(m, paths.get(m)![0]);
    const ext = v2.extensions?.['offer-receipt'];
    expect(ext).toEqual({ info: expect.any(Object), schema: expect.any(Object) });
    expect(ext.schema.type).toBe('object');
    expect(extractOffersFromPaymentRequired(v2)).toEqual(ext.info.offers);
  });

  it('a paid answer carries the receipt with its schema', async () => {
    const r = await paid(m, 'POST', paths.get(m)![0], { text: 'paid' }, newWallet());
    expectStatus(r, 200, 'paid:');
    const ext = (decodePaymentResponse(r.headers.get('x-payment-response')) as any).extensions['offer-receipt'];
    expect(ext).toEqual({ info: { receipt: expect.any(Object) }, schema: expect.any(Object) });
  });

  it('a v1 payment on base-sepolia is receipted in CAIP-2 (eip155:84532), servers MUST convert', async () => {
    const receipt = await receiptOfV1(typed, paths.get(typed)![0]);
    if (receipt.format !== 'eip712') throw new Error(`expected an EIP-712 receipt, got ${receipt.format}`);
    expect(receipt.payload.network).toBe(convertNetworkStringToCAIP2('base-sepolia'));
  });

  it('an EIP-712 receipt verifies with the reference verifier: the signer is the published one', async () => {
    const receipt = await receiptOfV1(typed, paths.get(typed)![1]);
    if (receipt.format !== 'eip712') throw new Error(`expected an EIP-712 receipt, got ${receipt.format}`);
    const did = (await api(typed, 'GET', '/.well-known/did.json')).body;
    const published = did.verificationMethod
      .map((v: { blockchainAccountId?: string }) => v.blockchainAccountId?.split(':').pop())
      .filter(Boolean)
      .map((a: string) => a.toLowerCase());
    const { signer } = await verifyReceiptSignatureEIP712(receipt);
    expect(published).toContain(signer.toLowerCase());
  });
});

describe('Bazaar discovery extension: each capability is its own catalog entry', () => {
  it("extractDiscoveryInfo gives two capabilities' 402s two resource URLs, each its own", async () => {
    const urls: string[] = [];
    for (const path of paths.get(m)!) {
      const v2 = await required(m, path);
      expect(validateDiscoveryExtension(v2.extensions.bazaar)).toEqual({ valid: true });
      const payment = { x402Version: 2, resource: v2.resource, accepted: v2.accepts[0], payload: {} };
      const found = extractDiscoveryInfo({ ...payment, extensions: v2.extensions } as never, v2.accepts[0]);
      expect(found?.resourceUrl).toBe(`${m.baseUrl}${path}`);
      urls.push(found!.resourceUrl);
    }
    expect(new Set(urls).size).toBe(2);
  });
});

describe('A2A agent card (A2A 1.0)', () => {
  it('/.well-known/agent-card.json declares a supported interface: url, binding, version', async () => {
    const r = await api(m, 'GET', '/.well-known/agent-card.json');
    expectStatus(r, 200, 'agent card:');
    const interfaces = r.body.supportedInterfaces as Record<string, unknown>[];
    expect(interfaces.length).toBeGreaterThan(0);
    for (const i of interfaces) {
      expect(i).toMatchObject({
        url: expect.stringMatching(/^https?:\/\//),
        protocolBinding: expect.any(String),
        protocolVersion: expect.any(String),
      });
    }
  });
});
