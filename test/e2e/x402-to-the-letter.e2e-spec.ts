import Ajv2020 from 'ajv/dist/2020';
import { extractDiscoveryInfo, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import {
  createOfferReceiptExtension,
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  type SignedReceipt,
} from '@x402/extensions/offer-receipt';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
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
  let agentServer: TestAgentServer;
  const agents: { id: string; path: string }[] = [];
  const ajv = new Ajv2020({ strict: false });

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
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
    await api.close();
    await agentServer.stop();
  });

  const required = async (path: string) => {
    const res = await api.request('POST', path, { body: { text: 'hi' } });
    expect(res.status).toBe(402);
    return b64json(res.headers.get('payment-required')!);
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
        expect(found!.routeTemplate).toBeUndefined();
        keys.push(found!.resourceUrl);
      }
      expect(new Set(keys).size).toBe(agents.length);
    });
  });
});
