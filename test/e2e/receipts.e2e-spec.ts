import { createHmac } from 'node:crypto';
import { Wallet } from 'ethers';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };
import type * as Viem from 'viem' with { 'resolution-mode': 'import' };
import { canonicalize, verifyReceiptSignatureEIP712 } from '@x402/extensions/offer-receipt';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { x402Header } from '../support/x402';
import { DELIVERY_DOMAIN, DELIVERY_TYPES, OFFER_DOMAIN, OFFER_TYPES } from '../support/receipts';
import { TestAgentServer } from '../support/agent-server';
import { registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { referencePayingFetch } from '../support/x402-client';

// Both libraries' type declarations are ES modules, which this CommonJS tree (module node16) may import only as types.
/* eslint-disable @typescript-eslint/no-require-imports */
const { compactVerify, decodeProtectedHeader, importJWK } = require('jose') as typeof Jose;
const { verifyTypedData } = require('viem') as typeof Viem;
/* eslint-enable @typescript-eslint/no-require-imports */

const SEED_A = 'a1'.repeat(32);
const SEED_B = 'b2'.repeat(32);
const b64json = (h: string) => JSON.parse(Buffer.from(h, 'base64').toString('utf8'));
/** A version 3 or 4 receipt's hash (and 4's request commitment): HMAC-SHA256 of the canonical JSON under the salt. */
const saltedHashOf = (v: unknown, salt: string) =>
  `0x${createHmac('sha256', Buffer.from(salt, 'hex')).update(canonicalize(v)).digest('hex')}`;

/** Issue 33: signed offers in each 402 and signed receipts in each PAYMENT-RESPONSE, checked with jose and viem alone. */
describe('x402 signed offers and receipts (e2e)', () => {
  let api: ApiHarness;
  let rotated: ApiHarness;
  let eip712: ApiHarness;
  let agentServer: TestAgentServer;
  let path: string;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    const env = { OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', RECEIPT_SIGNING_SEEDS: SEED_A };
    api = await startApi(env);
    const same = { DATABASE_URL: api.databaseUrl, QUEUE_PREFIX: api.env.QUEUE_PREFIX };
    // The same deployment after a key rotation (B signs, A stays published), and one signing EIP-712.
    rotated = await startApi({ ...env, ...same, RECEIPT_SIGNING_SEEDS: `${SEED_B},${SEED_A}` });
    eip712 = await startApi({ ...env, ...same, RECEIPT_FORMAT: 'eip712' });
    const res = await registerAgent(api, newWallet(), { endpoints: { execution: agentServer.url } });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    path = `/api/v1/agents/${agentId}/capabilities/translate/execute`;
  });
  afterAll(async () => {
    await eip712.close();
    await rotated.close();
    await api.close();
    await agentServer.stop();
  });

  const pay = async (base: ApiHarness, wallet: Wallet, input: Record<string, unknown>) => {
    const res = await referencePayingFetch(wallet)(`${base.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(200);
    const header = res.headers.get('payment-response')!;
    return {
      body: (await res.json()) as any,
      response: b64json(header),
      header,
      salt: res.headers.get('x-receipt-salt'),
    };
  };
  /** The JWS key a kid names, from the deployment's did:web document (as a did:web resolver reads it). */
  const didKey = async (base: ApiHarness, kid: string) => {
    const doc = (await (await fetch(`${base.baseUrl}/.well-known/did.json`)).json()) as any;
    const method = doc.verificationMethod.find((m: any) => m.id === kid);
    return method ? importJWK(method.publicKeyJwk, 'EdDSA') : null;
  };
  const verifyJws = async (base: ApiHarness, jws: string) => {
    const key = await didKey(base, decodeProtectedHeader(jws).kid!);
    const { payload } = await compactVerify(jws, key!);
    return JSON.parse(Buffer.from(payload).toString('utf8'));
  };
  const verifyRoute = (base: ApiHarness, body: unknown) => base.request('POST', '/api/v1/receipts/verify', { body });

  it('signs an offer per accepted option in each 402 (JWS, EdDSA under the did:web key)', async () => {
    const res = await api.request('POST', path, { body: { text: 'hi' } });
    expect(res.status).toBe(402);
    const required = b64json(res.headers.get('payment-required')!);
    const offers = required.extensions['offer-receipt'].info.offers;
    expect(offers).toHaveLength(required.accepts.length);
    for (const offer of offers) {
      expect(offer.format).toBe('jws');
      expect(decodeProtectedHeader(offer.signature)).toMatchObject({ alg: 'EdDSA', typ: 'x402-offer+jws' });
      const p = await verifyJws(api, offer.signature);
      const accepted = required.accepts[offer.acceptIndex];
      expect(p).toMatchObject({
        version: 1,
        resourceUrl: required.resource.url,
        scheme: accepted.scheme,
        network: accepted.network,
        asset: accepted.asset,
        payTo: accepted.payTo,
        amount: accepted.amount,
      });
      expect(p.validUntil).toBeGreaterThan(Math.floor(Date.now() / 1000));
    }
  });

  it('answers a paid call with a JWS receipt that binds the payment, the fee split and the delivered output', async () => {
    const wallet = newWallet();
    const input = { text: 'bonjour' };
    const { body, response, salt } = await pay(api, wallet, input);
    const receipt = response.extensions['offer-receipt'].info.receipt;
    expect(receipt.format).toBe('jws');
    const p = await verifyJws(api, receipt.signature);
    const { data } = body;
    // The salt its hashes are keyed with, to the payer beside the receipt (body and header).
    expect(data.receiptSalt).toMatch(/^[0-9a-f]{64}$/);
    expect(salt).toBe(data.receiptSalt);
    const micros = (usdc: string) => String(Math.round(Number(usdc) * 1e6));
    expect(p).toEqual({
      version: 4,
      network: response.network,
      resourceUrl: `${api.config.publicBaseUrl}${path}`,
      payer: wallet.address,
      issuedAt: expect.any(Number),
      transaction: data.settlement.txHash,
      requestCommitment: saltedHashOf(data.requestId, data.receiptSalt),
      agentId,
      capabilityId: 'translate',
      amount: micros(data.cost.total),
      agentFee: micros(data.cost.agentFee),
      platformFee: micros(data.cost.platformFee),
      inputHash: saltedHashOf(input, data.receiptSalt),
      contentHash: saltedHashOf(data.output, data.receiptSalt),
      settlementPending: false,
    });
    expect(response.transaction).toBe(data.settlement.txHash);
    expect(decodeProtectedHeader(receipt.signature)).toMatchObject({ alg: 'EdDSA', typ: 'x402-receipt+jws' });
    // The public verifier agrees, and tells a different output apart.
    const ok = await verifyRoute(api, { receipt, output: data.output, input, salt: data.receiptSalt });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ valid: true, reason: null, format: 'jws', key: { current: true } });
    const wrong = await verifyRoute(api, { receipt, output: { ...data.output, extra: 1 }, salt: data.receiptSalt });
    expect(wrong.body.data).toMatchObject({ valid: false, reason: 'content_mismatch' });
  });

  it('keeps the receipt with the execution: GET /execute/:id shows it to the payer only (v1 X-PAYMENT too)', async () => {
    const wallet = newWallet();
    const header = await x402Header(wallet, { amount: 11_000n, payTo: api.config.platformWallet });
    const paid = await api.request('POST', path, { body: { text: 'kept' }, headers: { [header.name]: header.value } });
    expect(paid.status).toBe(200);
    const name = header.name === 'X-PAYMENT' ? 'x-payment-response' : 'payment-response';
    const sent = b64json(paid.headers.get(name)!).extensions['offer-receipt'].info.receipt;
    await expect(verifyJws(api, sent.signature)).resolves.toMatchObject({ version: 4 });
    const read = `/api/v1/execute/${paid.body.data.requestId}`;
    const mine = await api.request('GET', read, { headers: { [header.name]: header.value } });
    expect(mine.body.data.receipt).toEqual(sent);
    expect(mine.body.data.output).toEqual(paid.body.data.output);
    expect(mine.body.data.receiptSalt).toBe(paid.body.data.receiptSalt);
    const anyone = await api.request('GET', read);
    expect(anyone.status).toBe(200);
    expect(anyone.body.data.receipt).toBeUndefined();
    expect(anyone.body.data.receiptSalt).toBeUndefined();
    expect(anyone.headers.get('x-receipt-salt')).toBeNull();
    const [row] = await api.app
      .get(DataSource)
      .query(`SELECT receipt, route FROM executions WHERE id = $1`, [paid.body.data.requestId]);
    expect(row).toEqual({ receipt: sent, route: 'capability' });
  });

  it('a tampered receipt (amount or output hash changed) fails jose and the verify route', async () => {
    const { response } = await pay(api, newWallet(), { text: 'tamper' });
    const jws: string = response.extensions['offer-receipt'].info.receipt.signature;
    const [h, body, sig] = jws.split('.');
    for (const change of [{ amount: '1' }, { contentHash: `0x${'00'.repeat(32)}` }]) {
      const payload = { ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), ...change };
      const forged = `${h}.${Buffer.from(canonicalize(payload)).toString('base64url')}.${sig}`;
      await expect(verifyJws(api, forged)).rejects.toThrow();
      const res = await verifyRoute(api, { receipt: { format: 'jws', signature: forged } });
      expect(res.body.data).toMatchObject({ valid: false, reason: 'bad_signature' });
    }
  });

  it('after a rotation the new key signs and a receipt of the old key still verifies', async () => {
    const { response: old } = await pay(api, newWallet(), { text: 'old key' });
    const { response: fresh } = await pay(rotated, newWallet(), { text: 'new key' });
    const oldJws = old.extensions['offer-receipt'].info.receipt.signature;
    const newJws = fresh.extensions['offer-receipt'].info.receipt.signature;
    expect(decodeProtectedHeader(newJws).kid).not.toBe(decodeProtectedHeader(oldJws).kid);
    // jose alone, with the keys the rotated deployment publishes.
    await expect(verifyJws(rotated, oldJws)).resolves.toMatchObject({ version: 4 });
    await expect(verifyJws(rotated, newJws)).resolves.toMatchObject({ version: 4 });
    const res = await verifyRoute(rotated, { receipt: { format: 'jws', signature: oldJws } });
    expect(res.body.data).toMatchObject({ valid: true, key: { current: false } });
    const keys = await rotated.request('GET', '/api/v1/platform/keys');
    expect(keys.body.data.receiptKeys.map((k: any) => k.current)).toEqual([true, false]);
    expect(keys.body.data.receiptKeys[0].kid).toBe(decodeProtectedHeader(newJws).kid);
  });

  it('signs EIP-712 offers and receipts when configured, checked with viem against the published address', async () => {
    const keys = await eip712.request('GET', '/api/v1/platform/keys');
    expect(keys.body.data.receiptFormat).toBe('eip712');
    const address = keys.body.data.receiptKeys[0].address as `0x${string}`;
    const unpaid = await eip712.request('POST', path, { body: { text: 'hi' } });
    const offer = b64json(unpaid.headers.get('payment-required')!).extensions['offer-receipt'].info.offers[0];
    expect(offer.format).toBe('eip712');
    const offerMessage = {
      ...offer.payload,
      version: BigInt(offer.payload.version),
      validUntil: BigInt(offer.payload.validUntil),
    };
    expect(
      await verifyTypedData({
        address,
        domain: OFFER_DOMAIN,
        types: OFFER_TYPES,
        primaryType: 'Offer',
        message: offerMessage,
        signature: offer.signature,
      }),
    ).toBe(true);

    const input = { text: 'typed' };
    const { body, response } = await pay(eip712, newWallet(), input);
    const receipt = response.extensions['offer-receipt'].info.receipt;
    expect(receipt.format).toBe('eip712');
    // The extension's receipt, checked by the reference verifier; agora's statement beside it, by viem.
    expect((await verifyReceiptSignatureEIP712(receipt)).signer).toBe(address);
    const delivery = receipt.delivery;
    const salt = body.data.receiptSalt;
    expect(delivery.payload).toMatchObject({
      version: 4,
      requestCommitment: saltedHashOf(body.data.requestId, salt),
      contentHash: saltedHashOf(body.data.output, salt),
      inputHash: saltedHashOf(input, salt),
    });
    expect(JSON.stringify(receipt)).not.toContain(body.data.requestId);
    const message = (p: any) => ({ ...p, version: BigInt(p.version), issuedAt: BigInt(p.issuedAt) });
    const check = (p: any) =>
      verifyTypedData({
        address,
        domain: DELIVERY_DOMAIN,
        types: DELIVERY_TYPES,
        primaryType: 'AgoraReceipt',
        message: message(p),
        signature: delivery.signature,
      });
    expect(await check(delivery.payload)).toBe(true);
    expect(await check({ ...delivery.payload, amount: '1' })).toBe(false);
    const tampered = await verifyRoute(eip712, {
      receipt: { ...receipt, delivery: { ...delivery, payload: { ...delivery.payload, agentFee: '0' } } },
    });
    expect(tampered.body.data).toMatchObject({ valid: false, reason: 'bad_signature' });
    // A field the type does not sign cannot ride along (EIP-712 hashes only the type's fields).
    const padded = await verifyRoute(eip712, { receipt: { ...receipt, payload: { ...receipt.payload, note: 'x' } } });
    expect(padded.body.data).toMatchObject({ valid: false, reason: 'not_a_receipt', payload: null });
    const ok = await verifyRoute(eip712, { receipt, output: body.data.output, salt, requestId: body.data.requestId });
    expect(ok.body.data).toMatchObject({ valid: true, format: 'eip712', key: { address } });
  });

  it('refuses malformed verify requests with 400 and nothing else', async () => {
    for (const body of [
      {},
      { receipt: { format: 'pgp', signature: 'x' } },
      { receipt: { format: 'jws', signature: 'a'.repeat(10_000) } },
      { receipt: { format: 'jws', signature: 7 } },
      { receipt: { format: 'jws', signature: 'x' }, output: 'not an object' },
      { receipt: { format: 'jws', signature: 'x' }, requestId: 'r'.repeat(65) },
    ]) {
      const res = await verifyRoute(api, body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
    }
    const nul = await verifyRoute(api, { receipt: { format: 'jws', signature: 'a.b\u0000.c' } });
    expect(nul.status).toBe(400);
    for (const signature of ['a.b.c', 'not a jws', `${Buffer.from('{"alg":"none"}').toString('base64url')}.e30.`]) {
      const garbage = await verifyRoute(api, { receipt: { format: 'jws', signature } });
      expect(garbage.status).toBe(200);
      expect(garbage.body.data).toMatchObject({ valid: false, payload: null });
    }
    const unsigned = await verifyRoute(api, {
      receipt: { format: 'eip712', signature: '0x00', payload: { version: 2 } },
    });
    expect(unsigned.body.data).toMatchObject({ valid: false, reason: 'not_a_receipt' });
    // A signed offer (same key) is not a receipt.
    const required = b64json(
      (await api.request('POST', path, { body: { text: 'o' } })).headers.get('payment-required')!,
    );
    const offer = required.extensions['offer-receipt'].info.offers[0];
    const asReceipt = await verifyRoute(api, { receipt: { format: 'jws', signature: offer.signature } });
    expect(asReceipt.body.data).toMatchObject({ valid: false, reason: 'not_a_receipt' });
    // The output checked is bounded (hash a larger one yourself).
    const big = await verifyRoute(api, {
      receipt: { format: 'jws', signature: offer.signature },
      output: { text: 'x'.repeat(70_000) },
    });
    expect([big.status, big.body.error.details.errors[0].field]).toEqual([400, 'output']);
  });
});
