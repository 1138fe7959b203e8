import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { executionCounts, referencePayingFetch } from '../support/x402-client';

const PRICE = 11_000n;

/** Issue 32: every capability its own x402 resource, and a Bazaar extension on every 402. */
describe('x402 capability resource (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let agentId: string;
  let path: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    ds = api.app.get(DataSource);
    const res = await registerAgent(api, newWallet(), {
      name: 'Traductor Políglota',
      endpoints: { execution: agentServer.url },
      capabilities: [
        capabilityPayload({
          inputSchema: {
            type: 'object',
            properties: { text: { type: 'string', examples: ['bonjour'] }, mode: { type: 'string', enum: ['ok'] } },
            required: ['text'],
          },
          outputSchema: { type: 'object', properties: { translation: { type: 'string' } }, required: ['translation'] },
        }),
      ],
    });
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
    path = `/api/v1/agents/${agentId}/capabilities/translate/execute`;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
  });

  const counts = () => executionCounts(ds);
  const v2Of = (res: { headers: Headers }) =>
    JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString());
  const v2Payment = async (wallet: Wallet, extensions?: unknown) => {
    const h = await x402Header(wallet, { amount: PRICE, payTo: api.config.platformWallet, version: 2 });
    const decoded = JSON.parse(Buffer.from(h.value, 'base64').toString());
    const value = Buffer.from(JSON.stringify({ ...decoded, ...(extensions ? { extensions } : {}) })).toString('base64');
    return { 'PAYMENT-SIGNATURE': value };
  };
  const payingFetch = (wallet: Wallet) => referencePayingFetch(wallet);

  it("answers 402 naming the capability's URL, with a Bazaar extension that validates", async () => {
    const res = await api.request('POST', path, { body: { text: 'hi' } });
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('PAYMENT_REQUIRED');
    const url = `${api.config.publicBaseUrl}${path}`;
    expect(res.body.accepts[0]).toMatchObject({ resource: url, maxAmountRequired: PRICE.toString() });
    const v2 = v2Of(res);
    expect(PaymentRequiredV2Schema.safeParse(v2).success).toBe(true);
    expect(v2.resource).toMatchObject({ url, serviceName: 'Traductor Poliglota', tags: ['translate', 'nlp'] });
    const bazaar = v2.extensions.bazaar;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    // No route template: Bazaar would list every capability under it as one resource (issue 51).
    expect(bazaar.routeTemplate).toBeUndefined();
    expect(bazaar.info).toEqual({
      input: {
        type: 'http',
        method: 'POST',
        bodyType: 'json',
        body: { text: 'bonjour', mode: 'ok' },
      },
      output: { type: 'json', example: { translation: 'string' } },
    });
  });

  it('gives POST /execute the same extension for its static route, the body wrapping the input', async () => {
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } },
    });
    expect(res.status).toBe(402);
    const v2 = v2Of(res);
    expect(PaymentRequiredV2Schema.safeParse(v2).success).toBe(true);
    expect(v2.resource.url).toBe(`${api.config.publicBaseUrl}/api/v1/execute`);
    expect(v2.resource).toMatchObject({ serviceName: 'Traductor Poliglota', tags: ['translate', 'nlp'] });
    const bazaar = v2.extensions.bazaar;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(bazaar.routeTemplate).toBeUndefined();
    expect(bazaar.info.input.body).toEqual({
      targetAgentId: agentId,
      capabilityId: 'translate',
      input: { text: 'bonjour', mode: 'ok' },
    });
  });

  it('is paid by @x402/fetch with the input as the body; an Idempotency-Key retry answers the same execution', async () => {
    const before = await counts();
    const pay = payingFetch(newWallet());
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': `k-${randomUUID()}` },
      body: JSON.stringify({ text: 'bonjour' }),
    };
    const res = await pay(`${api.baseUrl}${path}`, init);
    const body: any = await res.json();
    expect(res.status).toBe(200);
    expect(body.data).toMatchObject({ status: 'completed', settlement: { status: 'settled' } });
    expect(body.data.output.translation).toEqual(expect.any(String));
    const [row] = await ds.query(`SELECT agent_id, capability_id, input FROM executions WHERE id = $1`, [
      body.data.requestId,
    ]);
    expect(row).toEqual({ agent_id: agentId, capability_id: 'translate', input: { text: 'bonjour' } });
    expect(await counts()).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
    const again = await pay(`${api.baseUrl}${path}`, init);
    expect(again.status).toBe(200);
    expect(((await again.json()) as any).data.requestId).toBe(body.data.requestId);
    expect(await counts()).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });

  it('answers ?async=true with 202 and a status URL', async () => {
    const res = await api.request('POST', `${path}?async=true`, {
      body: { text: 'later' },
      headers: await v2Payment(newWallet()),
    });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'pending', requestId: expect.stringMatching(/^req_/) });
    expect(res.body.data.statusUrl).toBe(`${api.config.publicBaseUrl}/api/v1/execute/${res.body.data.requestId}`);
    expect(res.headers.get('location')).toBe(res.body.data.statusUrl);
  });

  it('refuses an echo that changes the offered info (402 extension_echo_mismatch, nothing charged); extra keys pass', async () => {
    const offered = v2Of(await api.request('POST', path, { body: { text: 'x' } })).extensions;
    const before = await counts();
    const changed = { bazaar: { ...offered.bazaar, info: { ...offered.bazaar.info, input: { method: 'GET' } } } };
    const res = await api.request('POST', path, {
      body: { text: 'x' },
      headers: await v2Payment(newWallet(), changed),
    });
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason: 'extension_echo_mismatch' } });
    const v2 = v2Of(res);
    expect(v2.error).toBe('extension_echo_mismatch');
    expect(v2.extensions).toEqual(offered);
    expect(await counts()).toEqual(before);
    const extra = { bazaar: { info: { ...offered.bazaar.info, note: 'mine' } }, other: { x: 1 } };
    const ok = await api.request('POST', path, { body: { text: 'x' }, headers: await v2Payment(newWallet(), extra) });
    expect(ok.status).toBe(200);
    expect((await counts()).executions).toBe(before.executions + 1);
  });

  it('answers an unpaid request with its 402 whatever the body (a bare POST learns the price)', async () => {
    const before = await counts();
    for (const body of [undefined, {}, { text: 7 }, { text: 'a' }]) {
      const res = await api.request('POST', path, body === undefined ? {} : { body });
      expect({ body, status: res.status, code: res.body.error.code }).toEqual({
        body,
        status: 402,
        code: 'PAYMENT_REQUIRED',
      });
      expect(v2Of(res).resource.url).toBe(`${api.config.publicBaseUrl}${path}`);
    }
    // A body that is not JSON is not an empty input, paid or not.
    for (const headers of [{}, await v2Payment(newWallet())]) {
      const res = await api.request('POST', path, {
        raw: 'text=hi',
        headers: { 'content-type': 'text/plain', ...headers },
      });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
    }
    // POST /execute keeps the contract's order: the input is checked first.
    const viaExecute = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 7 } },
    });
    expect(viaExecute.body.error.code).toBe('INPUT_SCHEMA_MISMATCH');
    expect(await counts()).toEqual(before);
  });

  it('refuses bad requests with the codes POST /execute gives, charging nothing', async () => {
    const before = await counts();
    const cases: [string, Record<string, unknown> | unknown[], string, Record<string, unknown>, number, string][] = [
      [`/api/v1/agents/${randomUUID()}/capabilities/translate/execute`, { text: 'a' }, '', {}, 404, 'AGENT_NOT_FOUND'],
      [`/api/v1/agents/${agentId}/capabilities/nope/execute`, { text: 'a' }, '', {}, 404, 'CAPABILITY_NOT_FOUND'],
      [path, { text: 'a' }, '?callbackUrl=ftp%3A%2F%2Fx', {}, 400, 'VALIDATION_ERROR'],
      [path, { text: 'a' }, '', { 'X-Callback-Url': 'not a url' }, 400, 'VALIDATION_ERROR'],
      [path, { text: 7 }, '', {}, 422, 'INPUT_SCHEMA_MISMATCH'],
      [path, ['text'], '', {}, 400, 'VALIDATION_ERROR'],
      ['/api/v1/agents/not-a-uuid/capabilities/translate/execute', { text: 'a' }, '', {}, 400, 'VALIDATION_ERROR'],
      [path, { text: 'a' }, '?idempotencyKey=a', { 'Idempotency-Key': 'b' }, 400, 'VALIDATION_ERROR'],
      // A NUL byte in the capability id is refused at the edge (it was a 500 from Postgres).
      [`/api/v1/agents/${agentId}/capabilities/%00/execute`, { text: 'a' }, '', {}, 400, 'VALIDATION_ERROR'],
    ];
    for (const [p, body, query, headers, status, code] of cases) {
      const res = await api.request('POST', `${p}${query}`, {
        body,
        headers: { ...headers, ...(await v2Payment(newWallet())) },
      });
      expect({ p, query, status: res.status, code: res.body.error?.code }).toEqual({ p, query, status, code });
    }
    // The same refusals on POST /execute, for comparison.
    const viaExecute = async (b: Record<string, unknown>) =>
      (await api.request('POST', '/api/v1/execute', { body: b, headers: await v2Payment(newWallet()) })).body.error
        .code;
    expect(await viaExecute({ targetAgentId: randomUUID(), capabilityId: 'translate', input: { text: 'a' } })).toBe(
      'AGENT_NOT_FOUND',
    );
    expect(await viaExecute({ targetAgentId: agentId, capabilityId: 'nope', input: { text: 'a' } })).toBe(
      'CAPABILITY_NOT_FOUND',
    );
    expect(await viaExecute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 7 } })).toBe(
      'INPUT_SCHEMA_MISMATCH',
    );
    expect(
      await viaExecute({ targetAgentId: agentId, capabilityId: 'translate', input: { text: 'a' }, callbackUrl: 'x' }),
    ).toBe('VALIDATION_ERROR');
    expect(await counts()).toEqual(before);
  });
});
