import { Wallet } from 'ethers';
import { OutboxService } from '@app/outbox';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { startApiWithAgent, ApiWithAgent } from '../support/api-with-agent';
import { consoleSession } from '../support/console-session';
import { clientSignature, fileDispute, paidExecute, PaidCall } from '../support/disputes';
import { registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * The reads the console's signed-in views make (issue 36): an agent's console session reads its
 * transactions (filtered), its executions (failed ones too), its events and its webhooks' delivery
 * log with the body sent and the answer; it never authorizes a change; another agent's or a
 * paying wallet's session is refused. A paying wallet reads the disputes it filed.
 */
describe('console: owner and buyer reads (e2e)', () => {
  let env: ApiWithAgent;
  let receiver: JsonReceiver;
  const buyer = newWallet();
  const calls: PaidCall[] = [];
  let failedId: string;
  let ownerCookie: string;

  beforeAll(async () => {
    receiver = await new JsonReceiver().start();
    env = await startApiWithAgent({ EXECUTION_TIMEOUT_MS: '1000', WEBHOOK_TIMEOUT_MS: '1000' });
    for (let i = 0; i < 3; i++) calls.push(await paidExecute(env.api, env.agentId, buyer, 11_000n));
    const h = await x402Header(buyer, { amount: 11_000n, payTo: env.api.config.platformWallet });
    const failed = await env.api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: env.agentId, capabilityId: 'translate', input: { text: 'x', mode: 'fail' } },
      headers: { [h.name]: h.value },
    });
    failedId = failed.body.error?.details?.requestId ?? failed.body.data?.requestId;
    ownerCookie = await consoleSession(env.api, env.owner, env.agentId);
  });
  afterAll(async () => {
    await env.stop();
    await receiver.stop();
  });

  const get = (path: string, headers: Record<string, string> = { cookie: ownerCookie }) =>
    env.api.request('GET', `/api/v1${path}`, { headers });

  it("the agent's session reads its transactions, filtered by status and capability", async () => {
    const all = await get(`/payments/history/${env.agentId}`);
    expect(all.status).toBe(200);
    expect(all.body.data.map((t: { id: string }) => t.id).sort()).toEqual(calls.map((c) => c.transactionId).sort());
    expect(
      (await get(`/payments/history/${env.agentId}?status=completed&capabilityId=translate`)).body.data,
    ).toHaveLength(3);
    expect((await get(`/payments/history/${env.agentId}?status=refunded`)).body.data).toEqual([]);
    expect((await get(`/payments/history/${env.agentId}?capabilityId=other`)).body.data).toEqual([]);
    for (const q of ['status=paid', 'capabilityId=a%20b', `capabilityId=${'x'.repeat(101)}`])
      expect((await get(`/payments/history/${env.agentId}?${q}`)).body.error.code).toBe('VALIDATION_ERROR');
  });

  it("the agent's session reads its executions, failed ones too, by pages and filters", async () => {
    const first = await get(`/agents/${env.agentId}/executions?limit=3`);
    expect(first.status).toBe(200);
    const second = await get(`/agents/${env.agentId}/executions?limit=3&cursor=${first.body.data.next}`);
    const rows = [...first.body.data.executions, ...second.body.data.executions];
    expect(second.body.data.next).toBeNull();
    const expected = await env.ds.query(
      `SELECT id FROM executions WHERE agent_id = $1 ORDER BY created_at DESC, id DESC`,
      [env.agentId],
    );
    expect(rows.map((r: { requestId: string }) => r.requestId)).toEqual(expected.map((r: { id: string }) => r.id));
    expect(rows.map((r: { requestId: string }) => r.requestId)).toContain(failedId);
    const paid = rows.find((r: { requestId: string }) => r.requestId === calls[0].requestId);
    expect(paid).toMatchObject({
      status: 'completed',
      payer: buyer.address.toLowerCase(),
      total: '0.011000',
      transactionId: calls[0].transactionId,
    });
    expect(typeof paid.latencyMs).toBe('number');
    const failed = await get(`/agents/${env.agentId}/executions?status=failed`);
    expect(failed.body.data.executions.map((r: { requestId: string }) => r.requestId)).toEqual([failedId]);
    expect((await get(`/agents/${env.agentId}/executions?status=nope`)).body.error.code).toBe('VALIDATION_ERROR');
    // The owner's signature reads them too; anyone else's is refused.
    const signed = await walletHeaders(env.owner, env.agentId, null);
    expect((await get(`/agents/${env.agentId}/executions`, signed)).body.data.executions).toHaveLength(4);
    const stranger = newWallet();
    expect(
      (await get(`/agents/${env.agentId}/executions`, await walletHeaders(stranger, env.agentId, null))).status,
    ).toBe(403);
    expect((await get(`/agents/${env.agentId}/executions`, {})).status).toBe(401);
  });

  it('another agent’s session, a paying wallet’s session, a revoked one: refused', async () => {
    const otherOwner = newWallet();
    const other = (await registerAgent(env.api, otherOwner)).body.data.id as string;
    const otherCookie = await consoleSession(env.api, otherOwner, other);
    for (const path of [`/payments/history/${env.agentId}`, `/agents/${env.agentId}/executions`]) {
      expect((await get(path, { cookie: otherCookie })).status).toBe(403);
      expect((await get(path, { cookie: await consoleSession(env.api, env.owner) })).status).toBe(403);
      expect((await get(path, { cookie: 'agora_session=forged' })).status).toBe(401);
    }
    const revoked = await consoleSession(env.api, env.owner, env.agentId);
    const me = (await get('/console/session', { cookie: revoked })).body.data.id;
    const origin = new URL(env.api.config.publicBaseUrl).origin;
    expect(
      (await env.api.request('DELETE', `/api/v1/console/sessions/${me}`, { headers: { cookie: revoked, origin } }))
        .status,
    ).toBe(204);
    expect((await get(`/payments/history/${env.agentId}`, { cookie: revoked })).status).toBe(401);
  });

  it('a session never authorizes a change: withdraw and edit need the wallet’s signature of each', async () => {
    const origin = new URL(env.api.config.publicBaseUrl).origin;
    const headers = { cookie: ownerCookie, origin };
    const before = (await get(`/payments/balance/${env.agentId}`)).body.data;
    const withdraw = await env.api.request('POST', '/api/v1/payments/withdraw', {
      body: { agentId: env.agentId, amount: '1.00', destinationWallet: env.owner.address },
      headers,
    });
    expect(withdraw.status).toBe(401);
    const patch = await env.api.request('PATCH', `/api/v1/agents/${env.agentId}`, { body: { name: 'taken' }, headers });
    expect(patch.status).toBe(401);
    expect((await get(`/payments/balance/${env.agentId}`)).body.data).toEqual(before);
    expect((await get(`/agents/${env.agentId}`)).body.data.name).not.toBe('taken');
    expect(await env.ds.query(`SELECT id FROM withdrawals WHERE agent_id = $1`, [env.agentId])).toEqual([]);
  });

  it('the delivery log shows the body sent and what the receiver answered, to the session', async () => {
    const sub = await env.api.request('POST', '/api/v1/webhooks', {
      body: { agentId: env.agentId, url: receiver.url, events: ['escrow.released'] },
      headers: await walletHeaders(env.owner, env.agentId, 'POST /api/v1/webhooks'),
    });
    expect(sub.status).toBe(201);
    receiver.reply = () => ({ status: 500, body: `{"error":"busy\u0000"}${'y'.repeat(3000)}` });
    const data = { requestId: 'req_console0001', earnings: '0.009500' };
    const eventId = await env.ds.transaction((m) =>
      env.api.app.get(OutboxService).record(m, 'escrow.released', env.agentId, data),
    );
    expect(await env.api.app.get(EventFanout).execute(eventId)).toBe(1);
    const [row] = await env.ds.query(`SELECT id FROM webhook_deliveries WHERE subscription_id = $1`, [
      sub.body.data.webhookId,
    ]);
    expect(await env.api.app.get(DeliverAttempt).execute(row.id)).toBe('retry');
    const log = await get(`/webhooks/${sub.body.data.webhookId}/deliveries`);
    expect(log.status).toBe(200);
    const attempt = log.body.data.deliveries.find((d: { deliveryId: string }) => d.deliveryId === row.id);
    expect(attempt).toMatchObject({ deliveryId: row.id, status: 'failed', responseStatus: 500, error: 'answered 500' });
    expect(JSON.parse(attempt.body)).toMatchObject({ type: 'escrow.released', data });
    expect(attempt.body).toBe(receiver.received[0].raw);
    expect(attempt.responseBody).toBe(`{"error":"busy\uFFFD"}${'y'.repeat(2048 - 17)}`);
    const otherOwner = newWallet();
    const other = (await registerAgent(env.api, otherOwner)).body.data.id as string;
    const log2 = await get(`/webhooks/${sub.body.data.webhookId}/deliveries`, {
      cookie: await consoleSession(env.api, otherOwner, other),
    });
    expect(log2.status).toBe(403);
  });

  it('a paying wallet reads the disputes it filed, with its session or signature; no one else', async () => {
    const filed = await fileDispute(env.api, calls[1]);
    expect(filed.status).toBe(201);
    const buyerCookie = await consoleSession(env.api, buyer);
    const list = (wallet: string, q: string, headers: Record<string, string>) =>
      get(`/payers/${wallet}/disputes${q}`, headers);
    const mine = await list(buyer.address, '', { cookie: buyerCookie });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual({
      disputes: [
        {
          id: filed.body.data.disputeId,
          transactionId: calls[1].transactionId,
          agentId: env.agentId,
          status: 'pending',
          reason: 'The translation was empty',
          createdAt: filed.body.data.createdAt,
          respondBy: filed.body.data.respondBy,
        },
      ],
      total: 1,
    });
    expect((await list(buyer.address, '?status=resolved', { cookie: buyerCookie })).body.data).toEqual({
      disputes: [],
      total: 0,
    });
    expect((await list(buyer.address, '', await clientSignature(buyer, buyer.address))).body.data.total).toBe(1);
    const other: Wallet = newWallet();
    expect((await list(buyer.address, '', { cookie: await consoleSession(env.api, other) })).status).toBe(403);
    expect((await list(buyer.address, '', { cookie: ownerCookie })).status).toBe(403);
    expect((await list(buyer.address, '', {})).status).toBe(401);
    expect((await list('0x12', '', { cookie: buyerCookie })).body.error.code).toBe('VALIDATION_ERROR');
    expect((await list(buyer.address, '?status=x', { cookie: buyerCookie })).body.error.code).toBe('VALIDATION_ERROR');
  });

  it('sessions of the wrong kind are refused on routes that name no agent; bad filters and cursors are 400', async () => {
    const walletCookie = await consoleSession(env.api, env.owner);
    expect((await get('/events', { cookie: walletCookie })).status).toBe(403);
    expect((await get('/events', { cookie: ownerCookie })).status).toBe(200);
    const filed = await fileDispute(env.api, calls[2]);
    const key = `/disputes/${filed.body.data.disputeId}/evidence-key`;
    expect((await get(key, { cookie: walletCookie })).status).toBe(403);
    const stranger = newWallet();
    const strangerAgent = (await registerAgent(env.api, stranger)).body.data.id as string;
    expect((await get(key, { cookie: await consoleSession(env.api, stranger, strangerAgent) })).status).toBe(403);
    expect((await get(key)).status).toBe(200);
    // An agent's session does not read its wallet's payments: that takes a paying-wallet session.
    expect((await get(`/payers/${env.owner.address}/executions`)).status).toBe(403);
    const forged = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const q of [
      'capabilityId=a%20b',
      `capabilityId=${'x'.repeat(101)}`,
      `cursor=${forged(['-271821-04-20T00:00:00.000Z', 'req_x'])}`,
      `cursor=${forged(['2026-01-01T00:00:00.000000Z', "req_x' OR 1=1"])}`,
      'cursor=%00',
      'limit=0',
    ])
      expect((await get(`/agents/${env.agentId}/executions?${q}`)).body.error.code).toBe('VALIDATION_ERROR');
    expect(
      (await get(`/payers/${buyer.address}/disputes?offset=-1`, await clientSignature(buyer, buyer.address))).status,
    ).toBe(400);
  });

  it('pages are exact to the microsecond, and a filtered page reads a bounded window', async () => {
    // 2,005 completed runs newer than the test's own, cloned from one of them; four share one millisecond.
    const clone = (n: string, at: string) =>
      env.ds.query(
        `INSERT INTO executions
         SELECT (jsonb_populate_record(NULL::executions, to_jsonb(e) || jsonb_build_object(
                  'id', 'req_fill' || g, 'payment_id', 'pay_fill' || g, 'status', 'completed',
                  'created_at', ${at}))).*
           FROM executions e, generate_series(1, ${n}) g WHERE e.id = $1`,
        [calls[0].requestId],
      );
    await clone('4', `'2099-01-01T00:00:00.000100Z'::timestamptz + g * interval '1 microsecond'`);
    const pageIds: string[] = [];
    let cursor = '';
    for (let i = 0; i < 4; i++) {
      const res = await get(`/agents/${env.agentId}/executions?limit=1${cursor}`);
      pageIds.push(res.body.data.executions[0].requestId);
      cursor = `&cursor=${res.body.data.next}`;
    }
    expect(pageIds).toEqual(['req_fill4', 'req_fill3', 'req_fill2', 'req_fill1']);
    await env.ds.query(`DELETE FROM executions WHERE id LIKE 'req_fill%'`);

    await clone('2005', `now() + interval '1 day' + g * interval '1 millisecond'`);
    const first = await get(`/agents/${env.agentId}/executions?status=failed`);
    expect(first.body.data.executions).toEqual([]);
    expect(first.body.data.next).not.toBeNull();
    const second = await get(`/agents/${env.agentId}/executions?status=failed&cursor=${first.body.data.next}`);
    expect(second.body.data.executions.map((r: { requestId: string }) => r.requestId)).toEqual([failedId]);
    expect(second.body.data.next).toBeNull();
    await env.ds.query(`DELETE FROM executions WHERE id LIKE 'req_fill%'`);
  });
});
