import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { EventFanout } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';

const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;

/** Subscriptions API, and single delivery attempts driven directly (headers, signatures, 410, Retry-After). */
describe('Webhooks API and deliveries (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let receiver: JsonReceiver;
  let owner: Wallet;
  let agentId: string;
  let ts = Date.now();
  const signed = (action: string) => walletHeaders(owner, agentId, action, ++ts);

  beforeAll(async () => {
    receiver = await new JsonReceiver().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      WEBHOOK_RETRY_DELAYS_MS: '0,200,400,600,5000',
      WEBHOOK_TIMEOUT_MS: '1000',
    });
    ds = api.app.get(DataSource);
    owner = newWallet();
    agentId = (await registerAgent(api, owner)).body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.reply = null;
    receiver.status = 200;
  });

  const subscribe = async (body: Record<string, unknown>, headers?: Record<string, string>) =>
    api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: receiver.url, events: ['execution.completed'], ...body },
      headers: headers ?? (await signed('POST /api/v1/webhooks')),
    });
  const rows = async () => (await ds.query(`SELECT count(*)::int AS n FROM webhook_subscriptions`))[0].n as number;
  /** An event as a domain records it: in a transaction, through the one publisher. */
  const emit = (
    type: 'execution.completed' | 'escrow.released',
    data: Record<string, unknown> = { requestId: 'req_test0000000', earnings: '0.009500' },
  ) => ds.transaction((m) => api.app.get(OutboxService).record(m, type, agentId, data));
  const attemptsOf = async (subscriptionId: string) =>
    ds.query(
      `SELECT id, attempt, status, scheduled_at, response_status, manual FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at, attempt`,
      [subscriptionId],
    );

  describe('subscriptions', () => {
    it('creates a subscription (201) and never returns the secret', async () => {
      const res = await subscribe({ events: ['execution.completed', 'escrow.released'], secret: WHSEC });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        webhookId: expect.stringMatching(/^wh_/),
        id: res.body.data.webhookId,
        agentId,
        url: receiver.url,
        events: ['execution.completed', 'escrow.released'],
        status: 'active',
        createdAt: expect.any(String),
      });
      // The agent's own read (signed) shows the URL whole; anyone else sees its origin (abuse-private).
      const list = await api.request('GET', `/api/v1/webhooks/agent/${agentId}`, {
        headers: await signed(`GET /api/v1/webhooks/agent/${agentId}`),
      });
      expect(list.body.data.total).toBeGreaterThanOrEqual(1);
      expect(JSON.stringify(list.body)).not.toContain(WHSEC);
      expect(list.body.data.webhooks.find((w: { id: string }) => w.id === res.body.data.webhookId)).toMatchObject({
        url: receiver.url,
        status: 'active',
      });
      const [row] = await ds.query(`SELECT secret FROM webhook_subscriptions WHERE id = $1`, [res.body.data.webhookId]);
      expect(row.secret).toBe(WHSEC);
    });

    it.each([
      ['an unknown event', { events: ['execution.started'] }, 'events'],
      ['no events', { events: [] }, 'events'],
      ['duplicate events', { events: ['escrow.released', 'escrow.released'] }, 'events'],
      ['a non-HTTP URL', { url: 'ftp://hooks.example.com/x' }, 'url'],
      ['a URL that is not one', { url: 'not a url' }, 'url'],
      ['a short secret', { secret: 'short' }, 'secret'],
      ['a secret with spaces', { secret: 'has spaces but is long enough to pass' }, 'secret'],
    ])('refuses %s with VALIDATION_ERROR and stores nothing', async (_label, body, field) => {
      const before = await rows();
      const res = await subscribe(body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await rows()).toBe(before);
    });

    it('needs the agent wallet signature: 401 without, 403 from another wallet or for another agent, 401 when replayed', async () => {
      const before = await rows();
      expect((await subscribe({}, {})).status).toBe(401);
      expect(
        (await subscribe({}, await walletHeaders(newWallet(), agentId, 'POST /api/v1/webhooks', ++ts))).status,
      ).toBe(403);
      const other = newWallet();
      const otherId = (await registerAgent(api, other)).body.data.id;
      expect((await subscribe({}, await walletHeaders(other, otherId, 'POST /api/v1/webhooks', ++ts))).status).toBe(
        403,
      );
      const headers = await signed('POST /api/v1/webhooks');
      expect((await subscribe({}, headers)).status).toBe(201);
      const replay = await subscribe({}, headers);
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe('UNAUTHORIZED');
      expect(await rows()).toBe(before + 1);
    });

    it('deletes with a signature (owner only); a deleted webhook is gone from the list and gets nothing', async () => {
      const id = (await subscribe({})).body.data.webhookId;
      expect((await api.request('DELETE', `/api/v1/webhooks/${id}`)).status).toBe(401);
      const other = newWallet();
      const otherId = (await registerAgent(api, other)).body.data.id;
      const foreign = await api.request('DELETE', `/api/v1/webhooks/${id}`, {
        headers: await walletHeaders(other, otherId, `DELETE /api/v1/webhooks/${id}`, ++ts),
      });
      expect(foreign.status).toBe(403);
      const res = await api.request('DELETE', `/api/v1/webhooks/${id}`, {
        headers: await signed(`DELETE /api/v1/webhooks/${id}`),
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ message: 'Webhook deleted', id });
      const list = await api.request('GET', `/api/v1/webhooks/agent/${agentId}`);
      expect(list.body.data.webhooks.map((w: { id: string }) => w.id)).not.toContain(id);
      expect(
        (
          await api.request('DELETE', `/api/v1/webhooks/${id}`, {
            headers: await signed(`DELETE /api/v1/webhooks/${id}`),
          })
        ).body.error.code,
      ).toBe('WEBHOOK_NOT_FOUND');
      expect(
        (
          await api.request('DELETE', '/api/v1/webhooks/nope', {
            headers: await signed('DELETE /api/v1/webhooks/nope'),
          })
        ).status,
      ).toBe(400);
      await api.app.get(EventFanout).execute(await emit('execution.completed'));
      expect(await attemptsOf(id)).toEqual([]);
    });
  });
});
