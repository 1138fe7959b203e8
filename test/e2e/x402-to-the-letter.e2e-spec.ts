import type { AgentCard as AgentCardType } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import Ajv2020 from 'ajv/dist/2020';
import { extractDiscoveryInfo, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import {
  convertNetworkStringToCAIP2,
  createOfferReceiptExtension,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  verifyOfferSignatureEIP712,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureEIP712,
  verifyReceiptSignatureJWS,
  type SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { referencePayingFetch } from '../support/x402-client';

const b64json = (h: string) => JSON.parse(Buffer.from(h, 'base64').toString('utf8'));

/** What the reference resource server's offer-receipt extension sends, from its own hooks. */
async function referenceExtension() {
  const signed = { format: 'jws', signature: 'x.y.z' } as const;
  const ext = createOfferReceiptExtension({
    kid: 'did:web:example.com#k',
    format: 'jws',
    issueOffer: async () => signed,
    issueReceipt: async () => signed,
  });
  const accept = { scheme: 'exact', network: 'eip155:84532', asset: '0x', amount: '1', payTo: '0x', extra: {} };
  const requirements = [{ ...accept, maxTimeoutSeconds: 60 }];
  const offer: any = await ext.enrichPaymentRequiredResponse!(undefined, {
    requirements,
    resourceInfo: { url: 'https://example.com/r' },
    paymentRequiredResponse: { x402Version: 2, resource: { url: 'https://example.com/r' }, accepts: requirements },
  } as never);
  const receipt: any = await ext.enrichSettlementResponse!(undefined, {
    result: { success: true, payer: '0x1', network: 'eip155:84532', transaction: '0x2' },
    transportContext: { request: { adapter: { getUrl: () => 'https://example.com/r' } } },
  } as never);
  return { offer, receipt };
}

/** Issue 51: the x402 extensions and the A2A card to the letter, checked with the reference libraries' own functions. */
describe('x402 to the letter (e2e)', () => {
  let api: ApiHarness;
  /** The same deployment (one database) signing EIP-712 offers and receipts. */
  let eip712: ApiHarness;
  let agentServer: TestAgentServer;
  const agents: { id: string; path: string }[] = [];
  const ajv = new Ajv2020({ strict: false });

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    const env = { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' };
    api = await startApi(env);
    eip712 = await startApi({
      ...env,
      DATABASE_URL: api.databaseUrl,
      QUEUE_PREFIX: api.env.QUEUE_PREFIX,
      RECEIPT_FORMAT: 'eip712',
    });
    for (const capability of ['translate', 'summarize']) {
      const res = await registerAgent(api, newWallet(), {
        endpoints: { execution: agentServer.url },
        capabilities: [capabilityPayload({ id: capability })],
      });
      expect(res.status).toBe(201);
      const id = res.body.data.id as string;
      agents.push({ id, path: `/api/v1/agents/${id}/capabilities/${capability}/execute` });
    }
  });
  afterAll(async () => {
    await eip712.close();
    await api.close();
    await agentServer.stop();
  });

  const required = async (path: string, base = api) => {
    const res = await base.request('POST', path, { body: { text: 'hi' } });
    expect(res.status).toBe(402);
    return b64json(res.headers.get('payment-required')!);
  };
  /** A paid call of the first capability: v1 (X-PAYMENT, network base-sepolia) or v2 (the reference client). */
  const paid = async (base: ApiHarness, version: 1 | 2): Promise<SignedReceipt> => {
    const url = `${base.baseUrl}${agents[0].path}`;
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"paid"}' };
    if (version === 2) return extractReceiptFromResponse(await referencePayingFetch(newWallet())(url, init))!;
    const amount = BigInt((await base.request('POST', agents[0].path, { body: {} })).body.accepts[0].maxAmountRequired);
    const h = await x402Header(newWallet(), { amount, payTo: base.config.platformWallet, version: 1 });
    const res = await fetch(url, { ...init, headers: { ...init.headers, [h.name]: h.value } });
    expect(res.status).toBe(200);
    const response = b64json(res.headers.get('x-payment-response')!);
    expect(response.network).toBe('base-sepolia'); // the v1 protocol's own name, in the v1 header
    return response.extensions['offer-receipt'].info.receipt;
  };
  /** The Ed25519 key the deployment's did:web document publishes for a JWS `kid`. */
  const jwkOf = async (base: ApiHarness, jws: string) => {
    const kid = JSON.parse(Buffer.from(jws.split('.')[0], 'base64url').toString()).kid;
    const did = (await base.request('GET', '/.well-known/did.json')).body;
    return did.verificationMethod.find((m: { id: string }) => m.id === kid).publicKeyJwk;
  };
  /** The EIP-712 signer the deployment publishes (platform keys, and its did:web document). */
  const publishedSigner = async (base: ApiHarness) => {
    const keys = (await base.request('GET', '/api/v1/platform/keys')).body.data;
    const did = (await base.request('GET', '/.well-known/did.json')).body;
    const account = did.verificationMethod.find((m: any) => m.blockchainAccountId).blockchainAccountId;
    expect(account).toBe(`eip155:1:${keys.receiptKeys[0].address}`);
    return keys.receiptKeys[0].address as string;
  };

  describe('offer-receipt carries info and schema (x402 v2 §5.1.2)', () => {
    it("a 402's extension: the reference server's schema, which its info satisfies", async () => {
      const v2 = await required(agents[0].path);
      const ext = v2.extensions['offer-receipt'];
      expect(Object.keys(ext).sort()).toEqual(['info', 'schema']);
      expect(ext.schema).toEqual((await referenceExtension()).offer.schema);
      expect(ajv.validate(ext.schema, ext.info)).toBe(true);
      expect(extractOffersFromPaymentRequired(v2)).toEqual(ext.info.offers);
      expect(ext.info.offers).toHaveLength(v2.accepts.length);
    });

    it("a paid answer's receipt: the reference server's schema, read back by the reference client", async () => {
      const res = await referencePayingFetch(newWallet())(`${api.baseUrl}${agents[0].path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'bonjour' }),
      });
      expect(res.status).toBe(200);
      const ext = b64json(res.headers.get('payment-response')!).extensions['offer-receipt'];
      expect(Object.keys(ext).sort()).toEqual(['info', 'schema']);
      expect(ext.schema).toEqual((await referenceExtension()).receipt.schema);
      expect(ajv.validate(ext.schema, ext.info)).toBe(true);
      const receipt: SignedReceipt | undefined = extractReceiptFromResponse(res);
      expect(receipt).toEqual(ext.info.receipt);
    });
  });

  describe('Bazaar: each capability is its own catalog entry', () => {
    it("extractDiscoveryInfo keys two agents' capabilities under two resource URLs, their own", async () => {
      const keys: string[] = [];
      for (const { path } of agents) {
        const v2 = await required(path);
        expect(validateDiscoveryExtension(v2.extensions.bazaar)).toEqual({ valid: true });
        // The payment payload a v2 client sends back: the 402's resource and extensions, one accepted option.
        const payment = { x402Version: 2, resource: v2.resource, accepted: v2.accepts[0], payload: {} };
        const found = extractDiscoveryInfo({ ...payment, extensions: v2.extensions } as never, v2.accepts[0]);
        expect(found).toMatchObject({ resourceUrl: `${api.config.publicBaseUrl}${path}`, method: 'POST' });
        expect((found as { routeTemplate?: string }).routeTemplate).toBeUndefined();
        keys.push(found!.resourceUrl);
      }
      expect(new Set(keys).size).toBe(agents.length);
    });
  });

  describe('receipts name the network in CAIP-2 (offer-receipt §5.2)', () => {
    it('a v1 payment on base-sepolia is receipted eip155:84532, in either format', async () => {
      const caip2 = convertNetworkStringToCAIP2('base-sepolia');
      expect(caip2).toBe('eip155:84532');
      const jws = await paid(api, 1);
      if (jws.format !== 'jws') throw new Error('expected a JWS receipt');
      expect(await verifyReceiptSignatureJWS(jws, await jwkOf(api, jws.signature))).toMatchObject({ network: caip2 });
      const typed = await paid(eip712, 1);
      if (typed.format !== 'eip712') throw new Error('expected an EIP-712 receipt');
      expect((await verifyReceiptSignatureEIP712(typed)).payload.network).toBe(caip2);
    });
  });

  describe("signatures verify with the reference's own functions", () => {
    it('EIP-712: the extension verifier recovers the published signer of offers and receipts', async () => {
      const address = await publishedSigner(eip712);
      for (const offer of extractOffersFromPaymentRequired(await required(agents[0].path, eip712))) {
        if (offer.format !== 'eip712') throw new Error('expected an EIP-712 offer');
        expect((await verifyOfferSignatureEIP712(offer)).signer).toBe(address);
      }
      const receipt = await paid(eip712, 2);
      if (receipt.format !== 'eip712') throw new Error('expected an EIP-712 receipt');
      const { signer, payload } = await verifyReceiptSignatureEIP712(receipt);
      expect(signer).toBe(address);
      // Exactly the extension's receipt (spec §5.3 types): agora's fields ride in `delivery`, under its own domain.
      expect(Object.keys(receipt.payload).sort()).toEqual(
        ['issuedAt', 'network', 'payer', 'resourceUrl', 'transaction', 'version'].sort(),
      );
      expect(payload).toMatchObject({ version: 1, resourceUrl: `${eip712.config.publicBaseUrl}${agents[0].path}` });
      const verdict = await eip712.request('POST', '/api/v1/receipts/verify', { body: { receipt } });
      expect(verdict.body.data).toMatchObject({ valid: true, key: { address }, payload: { ...payload, version: 4 } });
    });

    it('JWS: the extension verifier checks offers and receipts under the did:web key', async () => {
      for (const offer of extractOffersFromPaymentRequired(await required(agents[0].path))) {
        if (offer.format !== 'jws') throw new Error('expected a JWS offer');
        const p = await verifyOfferSignatureJWS(offer, await jwkOf(api, offer.signature));
        expect(p).toMatchObject({ version: 1, resourceUrl: `${api.config.publicBaseUrl}${agents[0].path}` });
      }
      const receipt = await paid(api, 2);
      if (receipt.format !== 'jws') throw new Error('expected a JWS receipt');
      const p = await verifyReceiptSignatureJWS(receipt, await jwkOf(api, receipt.signature));
      expect(p).toMatchObject({ network: 'eip155:84532', resourceUrl: `${api.config.publicBaseUrl}${agents[0].path}` });
      const forged = receipt.signature.replace(/\.[^.]+$/, `.${Buffer.alloc(64).toString('base64url')}`);
      await expect(
        verifyReceiptSignatureJWS({ format: 'jws', signature: forged }, await jwkOf(api, forged)),
      ).rejects.toThrow();
    });
  });

  describe('the A2A agent card declares the interface agora serves (A2A 1.0)', () => {
    it('one interface, typed and read by @a2a-js/sdk: x402 over HTTP, which answers a 402', async () => {
      const { AgentCard, AgentInterface, A2A_PROTOCOL_VERSION } = await import('@a2a-js/sdk');
      const { ClientFactory, DefaultAgentCardResolver } = await import('@a2a-js/sdk/client');
      const card: AgentCardType = await new DefaultAgentCardResolver().resolve(api.baseUrl);
      const raw = (await api.request('GET', '/.well-known/agent-card.json')).body;
      expect(AgentCard.fromJSON(raw)).toMatchObject(raw);
      expect(card.supportedInterfaces).toHaveLength(1);
      for (const i of card.supportedInterfaces) {
        expect(AgentInterface.fromJSON(AgentInterface.toJSON(i))).toEqual(i);
        expect(i).toEqual({
          url: `${api.config.publicBaseUrl}/api/v1/execute`,
          // A custom binding is named by a URI (A2A 1.0 §5.8): the x402 v2 HTTP transport's.
          protocolBinding: 'https://github.com/x402-foundation/x402/blob/main/specs/transports-v2/http.md',
          protocolVersion: A2A_PROTOCOL_VERSION,
          tenant: '',
        });
        // Served: a skill's call there is an x402 resource (402 with PAYMENT-REQUIRED).
        const [agentId, capabilityId] = card.skills[0].id.split('/');
        const res = await api.request('POST', new URL(i.url).pathname, {
          body: { targetAgentId: agentId, capabilityId, input: { text: 'hi' } },
        });
        expect(res.status).toBe(402);
        expect(b64json(res.headers.get('payment-required')!).x402Version).toBe(2);
      }
      // It claims none of A2A's message bindings: the SDK's client finds no transport it speaks.
      await expect(new ClientFactory().createFromAgentCard(card)).rejects.toThrow(/No compatible transport/);
    });
  });
});
