import { AgoraClient } from '@agora/sdk';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness, HttpResult } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { consoleSession } from '../support/console-session';
import { clientSignature, fileDispute } from '../support/disputes';
import { evmEnv } from '../support/evm-env';
import { REGISTRATION_FEE_MICROS, registerAgent } from '../support/factories';
import { authorizationsOnChain, rebuildHeader } from '../support/rebuilt-headers';
import { openSse, SseStream } from '../support/sse';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // translate: 0.01 to the agent, 0.001 to the platform
const CHAIN_PAYMENT = PRICE + 100_000n; // a chain root's cost and its budget

/**
 * Issue 52, "Outputs only for the payer", as the attacker. In evm mode a standard client's payment header is a
 * pure function of the transferWithAuthorization calldata anyone reads on chain, and the contract reads an output
 * with the request id and that header: so the request id is the only secret. The attacker rebuilds a payer's
 * headers from the chain, walks every public route as a stranger (feed, timeline, payment status by hash, nonce
 * and key, chain resource, dispute, receipts, analytics) and never meets the request id; the payer still reads
 * its output and its request ids with its wallet's signature or its console session (no header needed).
 */
describe('abuse: a request id is told to its payer only, in evm mode (e2e)', () => {
  let chain: LocalChain;
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let agentId: string;
  let feed: SseStream;
  const payer = newWallet();
  const stranger = newWallet();
  const key = `secret-key-${Math.random().toString(36).slice(2)}`;
  let plain: {
    requestId: string;
    transactionId: string;
    header: string;
    nonce: string;
    receipt: { format: string; signature: string };
    receiptSalt: string;
  };
  let root: { requestId: string; transactionId: string; chainId: string; header: string };

  beforeAll(async () => {
    chain = await startChain();
    agentServer = await new TestAgentServer().start();
    api = await startApi({ ...evmEnv(chain), OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    const owner = newWallet();
    await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
    const registered = await registerAgent(
      api,
      owner,
      { endpoints: { execution: agentServer.url } },
      { asset: chain.usdcAddress },
    );
    expect(registered.status).toBe(201);
    agentId = registered.body.data.id;
    feed = await openSse(`${api.baseUrl}/api/v1/feed/executions`);
    await chain.mint(payer.address, PRICE + CHAIN_PAYMENT);

    // The payer: a plain call with its own idempotency key, then a chain opened at the same agent.
    const pay = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'a secret letter' } },
      headers: { [pay.name]: pay.value, 'Idempotency-Key': key },
    });
    expect([res.status, res.body.data.settlement.status]).toEqual([200, 'settled']);
    plain = { ...res.body.data, header: pay.value, nonce: pay.nonce };
    const payChain = await x402Header(payer, {
      amount: CHAIN_PAYMENT,
      payTo: chain.platform.address,
      asset: chain.usdcAddress,
    });
    const opened = await api.request('POST', '/api/v1/execute', {
      body: {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'a chained secret' },
        chain: { budget: '0.10' },
      },
      headers: { [payChain.name]: payChain.value },
    });
    expect(opened.status).toBe(200);
    root = { ...opened.body.data, chainId: opened.body.data.chain.chainId, header: payChain.value };
  }, 120_000);
  afterAll(async () => {
    feed?.close();
    await api?.close();
    await agentServer?.stop();
    await chain?.stop();
  });

  const get = (path: string, headers: Record<string, string> = {}) => api.request('GET', path, { headers });
  const leaks = (r: HttpResult, ...ids: string[]) => ids.some((id) => JSON.stringify(r.body).includes(id));

  it("rebuilds the payer's headers byte for byte from chain data, and with them reads nothing without a request id", async () => {
    const rebuilt = (await authorizationsOnChain(chain, payer.address)).map(rebuildHeader);
    // The premise: the headers are public.
    expect(rebuilt.sort()).toEqual([plain.header, root.header].sort());
    const h = { 'X-PAYMENT': plain.header };
    const seen = {
      // The contract's read takes a request id: a transaction id is refused, the timeline by it names none.
      outputByTx: (await get(`/api/v1/execute/${plain.transactionId}`, h)).status,
      timelineByTx: (await get(`/api/v1/execute/${plain.transactionId}/timeline`, h)).body.data.requestId,
      retryByTx: (await api.request('POST', `/api/v1/execute/${plain.transactionId}/retry`, { headers: h })).status,
      // Presented again, the authorization is spent: refused, with neither the answer nor the request id.
      replay: await api
        .request('POST', '/api/v1/execute', {
          body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'a secret letter' } },
          headers: h,
        })
        .then((r) => ({ status: r.status, code: r.body.error?.code, leaks: leaks(r, plain.requestId, 'A SECRET') })),
      // The chain's root header shows the chain without its request ids.
      chainWithHeader: leaks(await get(`/api/v1/chains/${root.transactionId}`, { 'X-PAYMENT': root.header }), 'req_'),
    };
    expect(seen).toEqual({
      outputByTx: 400,
      timelineByTx: null,
      retryByTx: 400,
      replay: { status: 409, code: 'PAYMENT_REPLAYED', leaks: false },
      chainWithHeader: false,
    });
  });

  it('no public route tells a stranger a request id: feed, timeline, payment status, chain, dispute, receipts, analytics', async () => {
    const filed = await fileDispute(api, {
      transactionId: plain.transactionId,
      requestId: plain.requestId,
      payment: { name: 'X-PAYMENT', value: plain.header },
      payer,
    });
    expect(filed.status).toBe(201);
    await feed.next((e) => (e.data as { transactionId?: string }).transactionId === plain.transactionId, 5_000);
    const settlementHash = (await get(`/api/v1/payments/status/${plain.nonce}?payer=${payer.address}`)).body.data
      .payments[0].txHash as string;
    expect(settlementHash).toMatch(/^0x[0-9a-f]{64}$/);
    // A stranger's own valid signature proves its wallet, not the payer's.
    const strangerSigned = await clientSignature(stranger, stranger.address);
    const strangerSession = { cookie: await consoleSession(api, stranger) };
    // Each route with the status it answers a stranger (a payer's or an agent's own list: 401 or 403).
    const routes: [string, number, Record<string, string>?][] = [
      [`/api/v1/execute/${plain.transactionId}/timeline`, 200],
      [`/api/v1/execute/${root.transactionId}/timeline`, 200],
      [`/api/v1/payments/tx/${plain.transactionId}`, 200],
      [`/api/v1/payments/status/${settlementHash}`, 200],
      [`/api/v1/payments/status/${plain.nonce}?payer=${payer.address}`, 200],
      [`/api/v1/payments/status/${plain.nonce}?payer=${payer.address}`, 200, strangerSigned],
      [`/api/v1/payments/status/${plain.nonce}?payer=${payer.address}`, 200, strangerSession],
      [`/api/v1/payments/status/${key}?payer=${payer.address}`, 404],
      [`/api/v1/payments/status/${key}?payer=${payer.address}`, 404, strangerSigned],
      [`/api/v1/chains/${root.chainId}`, 200],
      [`/api/v1/chains/${root.transactionId}`, 200, strangerSigned],
      [`/api/v1/chains/${root.transactionId}/cost`, 200],
      [`/api/v1/disputes/${filed.body.data.disputeId}`, 200],
      [`/api/v1/disputes/agent/${agentId}`, 200],
      [`/api/v1/payers/${payer.address}/disputes`, 401],
      [`/api/v1/payers/${payer.address}/executions`, 401],
      [`/api/v1/payers/${payer.address}/executions`, 403, strangerSigned],
      [`/api/v1/agents/${agentId}/executions`, 401],
      [`/api/v1/agents/${agentId}`, 200],
      [`/api/v1/analytics/agent/${agentId}?period=all`, 200],
      [`/api/v1/analytics/agent/${agentId}/series`, 200],
      [`/api/v1/analytics/platform/series`, 200],
      [`/api/v1/payments/stats`, 200],
      [`/api/v1/reputation/${agentId}`, 200],
      [`/api/v1/reputation/leaderboard`, 200],
      [`/api/v1/payments/history/${agentId}`, 401],
    ];
    const answers = await Promise.all(routes.map(([path, , headers]) => get(path, headers)));
    const told = routes.flatMap(([path], i) => (leaks(answers[i], plain.requestId, root.requestId) ? [path] : []));
    // The contract's status read without a proof: no output, no receipt (it names the payer and hashes).
    const visitor = await get(`/api/v1/execute/${plain.requestId}`, strangerSigned);
    const feedTold = feed.events.some((e) => JSON.stringify(e.data).match(/req_/));
    expect({
      told,
      feedTold,
      statuses: answers.map((r) => r.status),
      visitor: [visitor.status, visitor.body.data.output, visitor.headers.get('x-payment-response')],
    }).toEqual({
      told: [],
      feedTold: false,
      statuses: routes.map(([, status]) => status),
      visitor: [200, undefined, null],
    });
  });

  it('a receipt the payer shows a stranger names no request id; the payer opens its commitment with the salt', async () => {
    const { receipt, receiptSalt } = plain;
    expect([receipt.format, receiptSalt]).toEqual(['jws', expect.stringMatching(/^[0-9a-f]{64}$/)]);
    const verify = (body: Record<string, unknown>) => api.request('POST', '/api/v1/receipts/verify', { body });
    // The stranger holds the receipt (not the salt): the whole JSON and the decoded JWS, and what the verifier tells it.
    const decoded = receipt.signature
      .split('.')
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
      .join('.');
    const seen = await verify({ receipt });
    expect(seen.body.data).toMatchObject({ valid: true, payload: { version: 4 } });
    // It reads the settlement transaction (so the payer's header, rebuilt from the chain), never the request id.
    expect(seen.body.data.payload.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const told = [JSON.stringify(receipt), decoded, JSON.stringify(seen.body)].filter((t) => /req_/.test(t));
    expect(told).toEqual([]);
    // A guessed id cannot be confirmed without the salt; with it, the payer's id opens the commitment, another does not.
    const guessed = await verify({ receipt, requestId: plain.requestId });
    expect([guessed.status, guessed.body.error?.details.errors[0].field]).toEqual([400, 'salt']);
    const mine = await verify({ receipt, requestId: plain.requestId, salt: receiptSalt });
    const notMine = await verify({ receipt, requestId: root.requestId, salt: receiptSalt });
    expect([mine.body.data.valid, notMine.body.data.reason]).toEqual([true, 'request_mismatch']);
  });

  it('the payer reads its outputs and request ids with its signature or its console session, no header needed', async () => {
    const signed = await clientSignature(payer, payer.address);
    const session = { cookie: await consoleSession(api, payer) };
    const output = async (id: string, headers: Record<string, string>) =>
      (await get(`/api/v1/execute/${id}`, headers)).body.data.output;
    const status = async (ref: string, headers: Record<string, string>) =>
      (await get(`/api/v1/payments/status/${ref}?payer=${payer.address}`, headers)).body.data?.payments[0]?.requestId;
    const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet: payer.privateKey });
    const seen = {
      bySignature: await output(plain.requestId, signed),
      bySession: await output(plain.requestId, session),
      chainRootBySignature: await output(root.requestId, signed),
      // The contract's way stays: the original header.
      byHeader: await output(plain.requestId, { 'X-PAYMENT': plain.header }),
      statusByNonce: await status(plain.nonce, signed),
      statusByKey: await status(key, session),
      chain: (await get(`/api/v1/chains/${root.chainId}`, signed)).body.data.rootRequestId,
      sdkOutput: (await sdk.getExecution(plain.requestId)).output,
      sdkStatus: ((await sdk.payments.status(key, { asPayer: true })) as { payments: { requestId: string }[] })
        .payments[0].requestId,
      sdkChain: ((await sdk.discovery.chain(root.chainId, { asPayer: true })) as { rootRequestId: string })
        .rootRequestId,
      // The pre-1.2.0 option (deprecated) reads as `asPayer` for a client with a wallet.
      sdkChainLegacy: (
        (await sdk.discovery.chain(root.chainId, { payment: { name: 'X-PAYMENT', value: root.header } })) as {
          rootRequestId: string;
        }
      ).rootRequestId,
    };
    const translation = { translation: 'A SECRET LETTER' };
    expect(seen).toEqual({
      bySignature: translation,
      bySession: translation,
      chainRootBySignature: { translation: 'A CHAINED SECRET' },
      byHeader: translation,
      statusByNonce: plain.requestId,
      statusByKey: plain.requestId,
      chain: root.requestId,
      sdkOutput: translation,
      sdkStatus: plain.requestId,
      sdkChain: root.requestId,
      sdkChainLegacy: root.requestId,
    });
    // A stale or forged payer signature is refused, not read as a visitor.
    const stale = await clientSignature(payer, payer.address, { timestampMs: Date.now() - 3_600_000 });
    const forged = await clientSignature(stranger, payer.address, { claimed: payer.address });
    expect([(await get(`/api/v1/execute/${plain.requestId}`, stale)).status]).toEqual([401]);
    expect([(await get(`/api/v1/execute/${plain.requestId}`, forged)).status]).toEqual([403]);
  });
});
