import { createHash, createHmac, sign } from 'node:crypto';
import { TypedDataEncoder } from 'ethers';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import { canonicalize, signReceiptEIP712 } from '@x402/extensions/offer-receipt';
import { ReceiptSigner } from '@app/x402';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { DELIVERY_DOMAIN } from '../support/receipts';
import { newWallet } from '../support/wallets';
import { referencePayingFetch } from '../support/x402-client';

// jose's type declarations are ES modules, which this CommonJS tree (module node16) may import only as types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { compactVerify, decodeProtectedHeader, importJWK } = require('jose') as typeof Jose;

const b64json = (h: string) => JSON.parse(Buffer.from(h, 'base64').toString('utf8'));
const hashOf = (v: unknown) => `0x${createHash('sha256').update(canonicalize(v)).digest('hex')}`;
const saltedHashOf = (v: unknown, salt: string) =>
  `0x${createHmac('sha256', Buffer.from(salt, 'hex')).update(canonicalize(v)).digest('hex')}`;
/** The EIP-712 types of a version 2 or 3 delivery statement (docs/receipts.md): the request id in plain. */
const DELIVERY_TYPES_V3 = {
  AgoraReceipt: [
    { name: 'version', type: 'uint256' },
    { name: 'network', type: 'string' },
    { name: 'resourceUrl', type: 'string' },
    { name: 'payer', type: 'string' },
    { name: 'issuedAt', type: 'uint256' },
    { name: 'transaction', type: 'string' },
    { name: 'requestId', type: 'string' },
    { name: 'agentId', type: 'string' },
    { name: 'capabilityId', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'agentFee', type: 'string' },
    { name: 'platformFee', type: 'string' },
    { name: 'inputHash', type: 'bytes32' },
    { name: 'contentHash', type: 'bytes32' },
    { name: 'settlementPending', type: 'bool' },
  ],
};

/**
 * Issue 52: receipts stated bare SHA-256 hashes of the input and output, so anyone shown a receipt
 * found a short input or output by hashing guesses. Version 3 keys them with a salt given to the payer
 * only; version 4 states the request id only by its salted commitment. Versions 2 and 3, issued before, still verify.
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

  it('a receipt shown to someone else tells no short input or output, nor the request id: they need the salt', async () => {
    const input = { text: 'yes' };
    const { body, response } = await pay(api, newWallet(), input);
    const receipt = response.extensions['offer-receipt'].info.receipt;
    const p = await verifyJws(api, receipt.signature);
    // The attacker holds the receipt (shown to it, or posted) and guesses the input and the output.
    for (const guess of [input, { text: 'no' }, body.data.output]) {
      expect([p.inputHash, p.contentHash]).not.toContain(hashOf(guess));
    }
    // Nor its request id (version 4: only its salted commitment), which with the public payment would read the output.
    const decoded = receipt.signature
      .split('.')
      .map((part: string) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('.');
    expect(`${JSON.stringify(receipt)} ${decoded}`).not.toMatch(/req_/);
    expect(p.requestCommitment).toBe(saltedHashOf(body.data.requestId, body.data.receiptSalt));
    // The payer checks the request id against the commitment (with the salt: 400 without).
    const salt = body.data.receiptSalt;
    const mine = await verifyRoute(api, { receipt, requestId: body.data.requestId, salt });
    expect(mine.body.data).toMatchObject({ valid: true, reason: null, payload: { version: 4 } });
    const otherId = await verifyRoute(api, { receipt, requestId: 'req_notthisone0000', salt });
    expect(otherId.body.data).toMatchObject({ valid: false, reason: 'request_mismatch' });
    const guessed = await verifyRoute(api, { receipt, requestId: body.data.requestId });
    expect([guessed.status, guessed.body.error.details.errors[0].field]).toEqual([400, 'salt']);
    const noSalt = await verifyRoute(api, { receipt, input });
    expect([noSalt.status, noSalt.body.error.details.errors[0].field]).toEqual([400, 'salt']);
    const wrongSalt = await verifyRoute(api, { receipt, input, salt: 'ab'.repeat(32) });
    expect(wrongSalt.body.data).toMatchObject({ valid: false, reason: 'input_mismatch' });
    // The salt is the payer's: every execution has its own.
    const other = await pay(api, newWallet(), input);
    expect(other.body.data.receiptSalt).not.toBe(body.data.receiptSalt);
    expect((await verifyRoute(api, { receipt, input, salt: body.data.receiptSalt })).body.data.valid).toBe(true);
  });

  /** A receipt agora issued before (version 2 or 3), signed with its key as it was then: JWS, or EIP-712 with v3's types. */
  const issuedBefore = async (version: 2 | 3, input: unknown, output: unknown, salt?: string) => {
    const key = api.app.get(ReceiptSigner).keys[0];
    const hash = (v: unknown) => (salt ? saltedHashOf(v, salt) : hashOf(v));
    const payload = {
      version,
      network: 'eip155:84532',
      resourceUrl: `${api.config.publicBaseUrl}${path}`,
      payer: newWallet().address,
      issuedAt: Math.floor(Date.now() / 1000) - 86_400,
      transaction: `0x${'12'.repeat(32)}`,
      requestId: `req_beforeversion${version}`,
      agentId,
      capabilityId: 'translate',
      amount: '11000',
      agentFee: '10000',
      platformFee: '1000',
      inputHash: hash(input),
      contentHash: hash(output),
      settlementPending: false,
    };
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: key.kid, typ: 'x402-receipt+jws' })).toString(
      'base64url',
    );
    const body = Buffer.from(canonicalize(payload)).toString('base64url');
    const jws = `${header}.${body}.${sign(null, Buffer.from(`${header}.${body}`), key.ed25519).toString('base64url')}`;
    const signTyped = (p: { domain: unknown; types: unknown; message: Record<string, unknown> }) =>
      key.secp256k1.sign(TypedDataEncoder.hash(p.domain as any, p.types as any, p.message)).serialized as `0x${string}`;
    const { network, resourceUrl, payer, issuedAt, transaction } = payload;
    const spec = { version: 1, network, resourceUrl, payer, issuedAt, transaction };
    const eip712 = {
      format: 'eip712',
      payload: spec,
      signature: await signReceiptEIP712(spec, (p) => Promise.resolve(signTyped(p as any))),
      delivery: {
        payload,
        signature: signTyped({
          domain: DELIVERY_DOMAIN,
          types: DELIVERY_TYPES_V3,
          message: { ...payload, version: BigInt(version), issuedAt: BigInt(payload.issuedAt) },
        }),
      },
    };
    return { payload, jws: { format: 'jws', signature: jws }, eip712 };
  };

  it('a receipt issued before the hashes were salted (version 2, bare SHA-256) still verifies, its output too', async () => {
    const input = { text: 'from before' };
    const output = { translation: 'DE AVANT' };
    const { jws } = await issuedBefore(2, input, output);
    const ok = await verifyRoute(api, { receipt: jws, output, input });
    expect(ok.body.data).toMatchObject({ valid: true, payload: { version: 2 } });
    const wrong = await verifyRoute(api, { receipt: jws, output: { translation: 'x' } });
    expect(wrong.body.data).toMatchObject({ valid: false, reason: 'content_mismatch' });
  });

  it('a version 3 receipt (request id in plain) still verifies, JWS and EIP-712, its request id and output too', async () => {
    const input = { text: 'from v3' };
    const output = { translation: 'FROM V3' };
    const salt = 'c3'.repeat(32);
    const { payload, jws, eip712 } = await issuedBefore(3, input, output, salt);
    for (const receipt of [jws, eip712]) {
      const ok = await verifyRoute(api, { receipt, output, input, salt, requestId: payload.requestId });
      expect(ok.body.data).toMatchObject({ valid: true, payload: { version: 3, requestId: payload.requestId } });
      const other = await verifyRoute(api, { receipt, requestId: 'req_notthisone0000' });
      expect(other.body.data).toMatchObject({ valid: false, reason: 'request_mismatch' });
    }
    // Its EIP-712 statement is bound to v3's types: relabelled version 4 it does not verify.
    const relabelled = { ...eip712, delivery: { ...eip712.delivery, payload: { ...payload, version: 4 } } };
    expect((await verifyRoute(api, { receipt: relabelled })).body.data).toMatchObject({ valid: false });
  });
});
