import { createHash, sign } from 'node:crypto';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import { canonicalize } from '@x402/extensions/offer-receipt';
import { ReceiptSigner } from '@app/x402';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { referencePayingFetch } from '../support/x402-client';

// jose's type declarations are ES modules, which this CommonJS tree (module node16) may import only as types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compactVerify, decodeProtectedHeader, importJWK } = require('jose') as typeof Jose;

const b64json = (h: string) => JSON.parse(Buffer.from(h, 'base64').toString('utf8'));
const hashOf = (v: unknown) => `0x${createHash('sha256').update(canonicalize(v)).digest('hex')}`;

/**
 * Issue 52: receipts stated bare SHA-256 hashes of the input and output, so anyone shown a receipt
 * found a short input or output by hashing guesses. Version 3 keys them with a salt given to the payer
 * only; version 2 receipts, issued before, still verify.
 */
describe('x402 receipts commit to salted hashes (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let path: string;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RECEIPT_SIGNING_SEEDS: 'a1'.repeat(32),
    });
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    path = `/api/v1/agents/${agentId}/capabilities/translate/execute`;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const pay = async (base: ApiHarness, wallet: ReturnType<typeof newWallet>, input: Record<string, unknown>) => {
    const res = await referencePayingFetch(wallet)(`${base.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(200);
    return { body: (await res.json()) as any, response: b64json(res.headers.get('payment-response')!) };
  };
  const verifyJws = async (base: ApiHarness, jws: string) => {
    const doc = (await (await fetch(`${base.baseUrl}/.well-known/did.json`)).json()) as any;
    const method = doc.verificationMethod.find((m: any) => m.id === decodeProtectedHeader(jws).kid);
    const { payload } = await compactVerify(jws, await importJWK(method.publicKeyJwk, 'EdDSA'));
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  };
  const verifyRoute = (base: ApiHarness, body: unknown) => base.request('POST', '/api/v1/receipts/verify', { body });

  it('a receipt shown to someone else does not tell a short input or output: its hashes need the payer’s salt', async () => {
    const input = { text: 'yes' };
    const { body, response } = await pay(api, newWallet(), input);
    const receipt = response.extensions['offer-receipt'].info.receipt;
    const p = await verifyJws(api, receipt.signature);
    // The attacker holds the receipt (shown to it, or posted) and guesses the input and the output.
    for (const guess of [input, { text: 'no' }, body.data.output]) {
      expect([p.inputHash, p.contentHash]).not.toContain(hashOf(guess));
    }
    const noSalt = await verifyRoute(api, { receipt, input });
    expect([noSalt.status, noSalt.body.error.details.errors[0].field]).toEqual([400, 'salt']);
    const wrongSalt = await verifyRoute(api, { receipt, input, salt: 'ab'.repeat(32) });
    expect(wrongSalt.body.data).toMatchObject({ valid: false, reason: 'input_mismatch' });
    // The salt is the payer's: every execution has its own.
    const other = await pay(api, newWallet(), input);
    expect(other.body.data.receiptSalt).not.toBe(body.data.receiptSalt);
    expect((await verifyRoute(api, { receipt, input, salt: body.data.receiptSalt })).body.data.valid).toBe(true);
  });

  it('a receipt issued before the hashes were salted (version 2, bare SHA-256) still verifies, its output too', async () => {
    const key = api.app.get(ReceiptSigner).keys[0];
    const input = { text: 'from before' };
    const output = { translation: 'DE AVANT' };
    const payload = {
      version: 2,
      network: 'eip155:84532',
      resourceUrl: `${api.config.publicBaseUrl}${path}`,
      payer: newWallet().address,
      issuedAt: Math.floor(Date.now() / 1000) - 86_400,
      transaction: `0x${'12'.repeat(32)}`,
      requestId: 'req_beforesalting01',
      agentId,
      capabilityId: 'translate',
      amount: '11000',
      agentFee: '10000',
      platformFee: '1000',
      inputHash: hashOf(input),
      contentHash: hashOf(output),
      settlementPending: false,
    };
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ: 'x402-receipt+jws' })).toString(
      'base64url',
    );
    const body = Buffer.from(canonicalize(payload)).toString('base64url');
    const jws = `${header}.${body}.${sign(null, Buffer.from(`${header}.${body}`), key.ed25519).toString('base64url')}`;
    const ok = await verifyRoute(api, { receipt: { format: 'jws', signature: jws }, output, input });
    expect(ok.body.data).toMatchObject({ valid: true, payload: { version: 2 } });
    const wrong = await verifyRoute(api, { receipt: { format: 'jws', signature: jws }, output: { translation: 'x' } });
    expect(wrong.body.data).toMatchObject({ valid: false, reason: 'content_mismatch' });
  });
});
