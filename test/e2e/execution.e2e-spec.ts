import { createHash, createPublicKey, verify } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { createSigner } from 'x402/types';
import { wrapFetchWithPayment as wrapFetchV1, decodeXPaymentResponse } from 'x402-fetch';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS } from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;

describe('Execution API (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', EXECUTION_TIMEOUT_MS: '500' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string' }, mode: { type: 'string' } },
            required: ['text'],
          },
          outputSchema: { type: 'object', properties: { translation: { type: 'string' } }, required: ['translation'] },
        }),
      ],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });
  beforeEach(() => {
    agentServer.defaultMode = 'ok';
  });

  const body = (input: Record<string, unknown> = { text: 'bonjour' }, extra: Record<string, unknown> = {}) => ({
    targetAgentId: agentId,
    capabilityId: 'translate',
    input,
    ...extra,
  });
  const paid = async (client: Wallet, o: { amount?: bigint } = {}) => {
    const h = await x402Header(client, { amount: o.amount ?? PRICE, payTo: api.config.platformWallet });
    return { [h.name]: h.value };
  };
  const execute = (b: unknown, headers: Record<string, string> = {}, query = '') =>
    api.request('POST', `/api/v1/execute${query}`, { body: b, headers });
  const counts = async () =>
    (
      await ds.query(
        `SELECT (SELECT count(*) FROM payments WHERE purpose = 'execution')::int AS payments, (SELECT count(*) FROM transactions)::int AS charges,
                (SELECT count(*) FROM executions)::int AS executions`,
      )
    )[0] as { payments: number; charges: number; executions: number };
  const invariants = async () =>
    (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
      (r) => r.violations.length,
    );

  it('asks for payment with the exact price (platform fee + agent fee) and rate-limit headers', async () => {
    const res = await execute(body());
    expect(res.status).toBe(402);
    expect(res.body.accepts[0]).toMatchObject({
      maxAmountRequired: '11000',
      resource: `${api.config.publicBaseUrl}/api/v1/execute`,
    });
    expect(res.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
  });

  it.each([
    [
      'an unknown agent',
      () => ({ ...body(), targetAgentId: '0b9f7c1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b' }),
      404,
      'AGENT_NOT_FOUND',
    ],
    ['an unknown capability', () => ({ ...body(), capabilityId: 'nope' }), 404, 'CAPABILITY_NOT_FOUND'],
    ['input that breaks the inputSchema', () => body({ text: 5 }), 422, 'INPUT_SCHEMA_MISMATCH'],
    ['input missing a required field', () => body({ mode: 'ok' }), 422, 'INPUT_SCHEMA_MISMATCH'],
    ['a missing input', () => ({ targetAgentId: agentId, capabilityId: 'translate' }), 400, 'VALIDATION_ERROR'],
    [
      'a callbackUrl that is not http(s)',
      () => body(undefined, { callbackUrl: 'ftp://hooks.example.com/x' }),
      400,
      'VALIDATION_ERROR',
    ],
  ])('validates %s before payment and charges nothing', async (_label, make, status, code) => {
    const before = await counts();
    const headers = await paid(newWallet());
    const res = await execute(make(), headers);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(await counts()).toEqual(before);
    // Every execute answer carries the limit headers, validation errors included.
    expect(res.headers.get('x-ratelimit-agent-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
    // The nonce claim taken with the rate-limit count was given back: the same header pays for a valid request.
    const ok = await execute(body(), headers);
    expect(ok.status).toBe(200);
    expect(await counts()).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });

  it("counts a payment whose signature is not the payer's against the caller's IP, not the wallet it names, and charges nothing", async () => {
    const client = newWallet();
    const forged = await x402Header(newWallet(), {
      amount: PRICE,
      payTo: api.config.platformWallet,
      from: client.address,
    });
    const before = await counts();
    const res = await execute(body(), { [forged.name]: forged.value });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      code: 'PAYMENT_INVALID',
      details: { reason: 'invalid_exact_evm_payload_signature' },
    });
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);
    expect(await counts()).toEqual(before);
    // The named wallet's own window is untouched: its first real execute still has the full allowance - 1.
    const ok = await execute(body(), await paid(client));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-client-remaining')).toBe(String(api.config.rateLimitClientPerMin - 1));
  });

  it('runs, settles and returns the output to a payer using x402-fetch unchanged', async () => {
    const client = newWallet();
    const signer = await createSigner('base-sepolia', client.privateKey as `0x${string}`);
    const res = await wrapFetchV1(fetch, signer)(`${api.baseUrl}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body({ text: 'bonjour' })),
    });
    expect(res.status).toBe(200);
    const data = ((await res.json()) as { data: any }).data;
    expect(data).toEqual({
      requestId: expect.stringMatching(/^req_/),
      status: 'completed',
      output: { translation: 'BONJOUR' },
      executionTime: expect.any(Number),
      cost: { agentFee: '0.010000', platformFee: '0.001000', total: '0.011000', pricingModel: 'per-request' },
      usage: { tokens: 7 },
      settlement: { status: 'settled', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), livemode: false },
      transactionId: expect.stringMatching(/^tx_/),
      // The signed receipt (x402 offer-receipt) it was answered with; receipts.e2e checks its contents.
      receipt: { format: 'jws', signature: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) },
      // What the receipt's hashes are keyed with (version 3), given to the payer only (receipts-salted.e2e).
      receiptSalt: expect.stringMatching(/^[0-9a-f]{64}$/),
      livemode: false,
    });
    expect(decodeXPaymentResponse(res.headers.get('x-payment-response')!).success).toBe(true);
    expect(res.headers.get('x-ratelimit-client-remaining')).toMatch(/^\d+$/);

    // The agent got a platform-signed request, for it, that it can verify with the published key.
    const call = agentServer.calls.find((c) => c.json.requestId === data.requestId)!;
    expect(call.json).toEqual({
      agentId,
      requestId: data.requestId,
      capabilityId: 'translate',
      input: { text: 'bonjour' },
    });
    expect(call.headers['x-request-id']).toBe(data.requestId);
    const [, t, sig] = /^t=(\d+),ed25519=(.+)$/.exec(String(call.headers['x-agora-signature']))!;
    const { keys } = (await api.request('GET', '/api/v1/platform/keys')).body.data;
    const publicKey = createPublicKey({
      key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), Buffer.from(keys[0].publicKey, 'base64')]),
      format: 'der',
      type: 'spki',
    });
    const message = `agora-call.v2.${t}.${agentId}.${data.requestId}.${createHash('sha256').update(call.body).digest('hex')}`;
    expect(verify(null, Buffer.from(message), publicKey, Buffer.from(sig, 'base64'))).toBe(true);

    const tx = (await api.request('GET', `/api/v1/payments/tx/${data.transactionId}`)).body.data;
    expect(tx).toMatchObject({
      amount: '0.010000',
      platformCut: '0.000500',
      agent_earnings: '0.009500',
      gross_amount: '0.011000',
    });
    const [event] = await ds.query(
      `SELECT data FROM outbox_events WHERE type = 'execution.completed' AND data->>'requestId' = $1`,
      [data.requestId],
    );
    expect(event.data).toEqual({
      requestId: data.requestId,
      agentId,
      capabilityId: 'translate',
      executionTime: data.executionTime,
      earnings: '0.009500',
    });
    expect(await invariants()).toEqual([]);
  });

  it('gives the output on GET only with the original payment header', async () => {
    const headers = await paid(newWallet());
    const { body: first } = await execute(body({ text: 'hola' }), headers);
    const id = first.data.requestId;
    const withHeader = await api.request('GET', `/api/v1/execute/${id}`, { headers });
    expect(withHeader.body.data).toMatchObject({
      requestId: id,
      status: 'completed',
      output: { translation: 'HOLA' },
      settlement: { status: 'settled' },
    });
    const without = await api.request('GET', `/api/v1/execute/${id}`);
    expect(without.body.data.output).toBeUndefined();
    expect(without.body.data.message).toMatch(/payment header/);
    const other = await api.request('GET', `/api/v1/execute/${id}`, { headers: await paid(newWallet()) });
    expect(other.body.data.output).toBeUndefined();
    expect((await api.request('GET', '/api/v1/execute/req_doesnotexist00')).body.error.code).toBe(
      'EXECUTION_NOT_FOUND',
    );
    expect((await api.request('GET', '/api/v1/execute/bad')).status).toBe(400);
  });
});
