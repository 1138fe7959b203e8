import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PaymentRequiredV2Schema } from '@x402/core/schemas';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import type { PaymentRequired } from '@x402/core/types';
import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import type { ApiHarness } from '../support/api-harness';
import { ApiWithAgent, startApiWithAgent } from '../support/api-with-agent';
import { callPaid, MCP_BIN, McpToolResult, x402Payer } from '../support/mcp-pay-per-call';
import { startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { executionCounts } from '../support/x402-client';

/**
 * Pay-per-call mode (issue 33): apps/mcp with no key, driven by the official MCP client as an x402
 * MCP client drives it (the payment built with @x402/core and @x402/evm's exact scheme from the
 * PaymentRequired tool result, sent in `_meta["x402/payment"]`), against the real api over stdio.
 */
describe('agora MCP server, pay-per-call (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  let client: Client;
  let transport: StdioClientTransport;
  let route: string;
  const inputSchema = {
    type: 'object',
    properties: { text: { type: 'string' }, mode: { type: 'string' } },
    required: ['text'],
  };

  let stack: ApiWithAgent;

  beforeAll(async () => {
    stack = await startApiWithAgent(
      { RATE_LIMIT_AGENT_PER_MIN: '1000000' },
      { name: 'MCP Translator', capability: { inputSchema } },
    );
    ({ api, ds, agentId } = stack);
    route = `/api/v1/agents/${agentId}/capabilities/translate/execute`;
    // Only what this mode reads: no key, no keystore, no password.
    const env = {
      PATH: process.env.PATH ?? '',
      AGORA_URL: api.baseUrl,
      AGORA_MCP_CAPABILITIES: `${agentId}:translate`,
    };
    transport = new StdioClientTransport({ command: process.execPath, args: [MCP_BIN, '--pay-per-call'], env });
    client = new Client({ name: 'x402-mcp-client', version: '1.0.0' });
    await client.connect(transport);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await stack.stop();
  });

  const pinned = () => `translate_${agentId.slice(0, 8)}`;
  const generic = (input: Record<string, unknown>) => ({ agentId, capabilityId: 'translate', input });
  /** The api's own 402 for an unpaid call of the capability: its PAYMENT-REQUIRED object. */
  const apisOffer = async () => {
    const res = await api.request('POST', route, { body: { text: 'x' } });
    expect(res.status).toBe(402);
    return JSON.parse(Buffer.from(res.headers.get('payment-required')!, 'base64').toString('utf8'));
  };
  /** The agent's earnings in micro-USDC ("0.009500" -> 9500n). */
  const earned = async () =>
    BigInt((await api.request('GET', `/api/v1/payments/balance/${agentId}`)).body.data.totalEarned.replace('.', ''));
  const expectPaymentRequired = (result: McpToolResult): PaymentRequired => {
    expect(result.isError).toBe(true);
    expect(PaymentRequiredV2Schema.safeParse(result.structuredContent).success).toBe(true);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    expect(result._meta?.['x402/payment-response']).toBeUndefined();
    return result.structuredContent as PaymentRequired;
  };

  it('holds no key, lists free reads and paid tools (no wallet tools), and refuses to start with a key', async () => {
    const environ = readFileSync(`/proc/${transport.pid}/environ`, 'utf8').split('\0');
    expect(environ.filter((v) => /^AGORA_(PRIVATE_KEY|KEYSTORE|PASSWORD)=/.test(v))).toEqual([]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'budget_check',
        'chain_cost',
        'discover',
        'execute_capability',
        'get_chain',
        'get_dispute',
        'get_execution',
        'recommend',
        pinned(),
      ].sort(),
    );
    const paid = tools.find((t) => t.name === pinned())!;
    expect(paid.inputSchema).toEqual(inputSchema);
    expect(paid.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, openWorldHint: true });
    expect(paid.description).toMatch(/_meta\["x402\/payment"\]/);

    const keyed = startProcess(MCP_BIN, { AGORA_URL: api.baseUrl, AGORA_PRIVATE_KEY: newWallet().privateKey }, [
      '--pay-per-call',
    ]);
    expect(await keyed.exited).toBe(1);
    expect(keyed.output()).toMatch(/pay-per-call mode holds no key: unset AGORA_PRIVATE_KEY/);
    // Off loopback it still needs a token: its sessions are few and its clients share its rate limits.
    const open = startProcess(MCP_BIN, { AGORA_URL: api.baseUrl, AGORA_MCP_HOST: '0.0.0.0' }, [
      '--pay-per-call',
      '--http',
    ]);
    expect(await open.exited).toBe(1);
    expect(open.output()).toMatch(/AGORA_MCP_TOKEN is required to serve on 0\.0\.0\.0/);
    expect(keyed.output()).not.toMatch(/0x[0-9a-f]{64}/i);
  });

  it("answers an unpaid call with the api's PaymentRequired, runs a paid one and returns the settlement", async () => {
    const wallet = newWallet();
    const before = await executionCounts(ds);
    const earnedBefore = await earned();
    const unpaid = await callPaid(client, pinned(), { text: 'hola' });
    const required = expectPaymentRequired(unpaid);
    expect(required).toEqual(await apisOffer());
    expect(required.accepts[0]).toMatchObject({ scheme: 'exact', amount: '11000', payTo: api.config.platformWallet });
    expect(await executionCounts(ds)).toEqual(before);

    const payload = await x402Payer(wallet)(required);
    const paid = await callPaid(client, pinned(), { text: 'hola' }, payload);
    expect(paid.isError).toBeFalsy();
    expect(paid.structuredContent).toEqual({ translation: 'HOLA' });
    expect(JSON.parse(paid.content[0].text)).toEqual({ translation: 'HOLA' });
    expect(paid._meta!['x402/payment-response']).toEqual({
      success: true,
      transaction: expect.any(String),
      network: required.accepts[0].network,
      payer: expect.stringMatching(new RegExp(`^${wallet.address}$`, 'i')),
      extensions: {
        'offer-receipt': {
          info: { receipt: { format: 'jws', signature: expect.any(String) } },
          schema: expect.objectContaining({ required: ['receipt'] }),
        },
      },
    });
    // The signed receipt passed through whole: it verifies, and binds the output the tool returned.
    const receipt = (paid._meta!['x402/payment-response'] as any).extensions['offer-receipt'].info.receipt;
    const verdict = await api.request('POST', '/api/v1/receipts/verify', {
      // Its hashes are keyed with the salt the payer got beside it (the execution in _meta).
      body: {
        receipt,
        output: paid.structuredContent,
        input: { text: 'hola' },
        salt: (paid._meta!['agora/execution'] as { receiptSalt: string }).receiptSalt,
      },
    });
    expect(verdict.body.data).toMatchObject({ valid: true, payload: { payer: wallet.address } });
    const execution = paid._meta!['agora/execution'];
    expect(execution).toMatchObject({ status: 'completed', settlement: { status: 'settled' } });
    const [row] = await ds.query(
      `SELECT e.status, e.agent_id AS "agentId", e.input, p.payer, p.value::text AS amount, p.status AS "paymentStatus"
         FROM executions e JOIN payments p ON p.purpose = 'execution' AND p.ref_id = e.id WHERE e.id = $1`,
      [execution.requestId],
    );
    expect(row).toEqual({
      status: 'completed',
      agentId,
      input: { text: 'hola' },
      payer: wallet.address.toLowerCase(),
      amount: '11000',
      paymentStatus: 'settled',
    });
    expect(await executionCounts(ds)).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });

    // The agent's fee (0.010000) less the platform's 5% cut.
    expect((await earned()) - earnedBefore).toBe(9_500n);

    // The same payment again (a client that lost the result retries): the first run's result, not run or charged again.
    const retried = await callPaid(client, pinned(), { text: 'hola' }, payload);
    expect(retried.isError).toBeFalsy();
    expect(retried.structuredContent).toEqual(paid.structuredContent);
    expect(retried._meta).toEqual(paid._meta);
    // The same authorization under another key (an identifier added): used already, never a request to pay again.
    const extensions = { ...(payload.extensions ?? {}) };
    appendPaymentIdentifierToExtensions(extensions, generatePaymentId());
    const replayed = await callPaid(client, pinned(), { text: 'hola' }, { ...payload, extensions });
    expect(replayed.isError).toBe(true);
    expect(replayed.structuredContent).toMatchObject({ error: { code: 'PAYMENT_REPLAYED' } });
    expect(replayed.content.map((c: any) => c.text).join(' ')).toMatch(/already used; do not pay again/);
    expect(await executionCounts(ds)).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });

  it('answers a retry carrying the same payment identifier with the first run and settlement, charged once', async () => {
    const required = expectPaymentRequired(await callPaid(client, pinned(), { text: 'once' }));
    // What a client that may lose an answer does: an identifier in the payment (x402 payment-identifier).
    const extensions = { ...(required.extensions ?? {}) };
    appendPaymentIdentifierToExtensions(extensions, generatePaymentId());
    const payload = await x402Payer(newWallet())({ ...required, extensions });
    const before = await executionCounts(ds);
    const first = await callPaid(client, pinned(), { text: 'once' }, payload);
    const again = await callPaid(client, pinned(), { text: 'once' }, payload);
    expect(first.structuredContent).toEqual({ translation: 'ONCE' });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta).toEqual(first._meta);
    expect(await executionCounts(ds)).toEqual({
      payments: before.payments + 1,
      charges: before.charges + 1,
      executions: before.executions + 1,
    });
  });

  it('pays execute_capability for any agent the same way', async () => {
    const required = expectPaymentRequired(await callPaid(client, 'execute_capability', generic({ text: 'any' })));
    const payload = await x402Payer(newWallet())(required);
    const paid = await callPaid(client, 'execute_capability', generic({ text: 'any' }), payload);
    expect(paid.structuredContent).toEqual({ translation: 'ANY' });
    expect(paid._meta!['x402/payment-response']).toMatchObject({ success: true });
  });

  it('refuses a malformed _meta["x402/payment"] with a PaymentRequired saying why, and charges nothing', async () => {
    const wallet = newWallet();
    const good = await x402Payer(wallet)(expectPaymentRequired(await callPaid(client, pinned(), { text: 'm' })));
    const before = await executionCounts(ds);
    const cases: [unknown, RegExp][] = [
      ['garbage', /must be an x402 PaymentPayload object/],
      [Buffer.from(JSON.stringify(good)).toString('base64'), /must be an x402 PaymentPayload object/],
      [{ ...good, padding: 'x'.repeat(200_000) }, /bytes of JSON; at most 11264/],
      [{ ...good, payload: { ...good.payload, signature: '0x\u0000' } }, /NUL or an unpaired surrogate at payment/],
      [{ ...good, x402Version: 1 }, /must have x402Version 2/],
      [{ x402Version: 2, accepted: 'exact', payload: 7 }, /is not an x402 v2 PaymentPayload/],
    ];
    for (const [payment, why] of cases) {
      const result = await callPaid(client, pinned(), { text: 'm' }, payment);
      expect(expectPaymentRequired(result).error).toBe('invalid_payment');
      expect(result.content[1].text).toMatch(/^PAYMENT_INVALID: _meta\["x402\/payment"\] /);
      expect(result.content[1].text).toMatch(why);
    }
    // A well-formed payment agora refuses (the amount changed after signing): its own 402, passed on.
    const tampered = { ...good, accepted: { ...good.accepted, amount: '1' } };
    const refused = await callPaid(client, pinned(), { text: 'm' }, tampered);
    expectPaymentRequired(refused);
    expect(refused.content[1].text).toMatch(/^PAYMENT_INVALID: /);
    expect(await executionCounts(ds)).toEqual(before);
    // The good payment still pays: nothing above used it.
    expect((await callPaid(client, pinned(), { text: 'm' }, good)).structuredContent).toEqual({ translation: 'M' });
  });

  it("answers an agent's failure with its code and no payment response, nothing charged", async () => {
    const required = expectPaymentRequired(await callPaid(client, pinned(), { text: 'f', mode: 'fail' }));
    const before = await executionCounts(ds);
    const payload = await x402Payer(newWallet())(required);
    const failed = await callPaid(client, pinned(), { text: 'f', mode: 'fail' }, payload);
    expect(failed.isError).toBe(true);
    expect(failed.content[0].text).toMatch(/^EXECUTION_FAILED: /);
    expect(failed.structuredContent.error).toMatchObject({ code: 'EXECUTION_FAILED', requestId: expect.any(String) });
    expect(failed._meta?.['x402/payment-response']).toBeUndefined();
    expect((await executionCounts(ds)).charges).toBe(before.charges);
  });

  it('over Streamable HTTP on loopback: the same flow, with no token needed', async () => {
    const env = { AGORA_URL: api.baseUrl };
    const server = startProcess(MCP_BIN, env, ['--pay-per-call', '--http', '--port', '0']);
    const http = new Client({ name: 'x402-mcp-client', version: '1.0.0' });
    try {
      const url = await waitFor(
        async () => /pay-per-call\) on (http:\/\/\S+\/mcp)/.exec(server.output())?.[1],
        'the server',
      );
      await http.connect(new StreamableHTTPClientTransport(new URL(url)));
      const required = expectPaymentRequired(await callPaid(http, 'execute_capability', generic({ text: 'web' })));
      const payload = await x402Payer(newWallet())(required);
      const paid = await callPaid(http, 'execute_capability', generic({ text: 'web' }), payload);
      expect(paid.structuredContent).toEqual({ translation: 'WEB' });
      expect(paid._meta!['x402/payment-response']).toMatchObject({
        success: true,
        network: required.accepts[0].network,
      });
    } finally {
      await http.close();
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });

  it('checks execute_capability arguments before calling agora, and names an unknown agent', async () => {
    const bad = await callPaid(client, 'execute_capability', { agentId, input: {} });
    expect(bad).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^VALIDATION_ERROR: /) }] });
    const unknown = await callPaid(client, 'execute_capability', {
      ...generic({ text: 'x' }),
      agentId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toMatch(/^AGENT_NOT_FOUND: /);
  });
});
