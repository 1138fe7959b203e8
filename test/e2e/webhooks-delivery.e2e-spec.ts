import { createHmac, randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';

const WHSEC = `whsec_${randomBytes(32).toString('base64')}`;
const PLAIN_SECRET = 'plain-secret-with-enough-length-42';

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

  describe('delivery', () => {
    let deliveries: DeliverAttempt;
    let fanout: EventFanout;
    beforeAll(async () => {
      deliveries = api.app.get(DeliverAttempt);
      fanout = api.app.get(EventFanout);
      // Only the subscriptions made here from now on: earlier ones are deleted.
      await ds.query(`UPDATE webhook_subscriptions SET status = 'deleted'`);
    });

    it('fans an event out to the matching subscriptions only, with every header and both signatures', async () => {
      const whsec = (await subscribe({ events: ['execution.completed'], secret: WHSEC })).body.data.webhookId;
      const plain = (await subscribe({ events: ['execution.completed'], secret: PLAIN_SECRET })).body.data.webhookId;
      const none = (await subscribe({ events: ['execution.completed'] })).body.data.webhookId;
      const otherType = (await subscribe({ events: ['escrow.released'] })).body.data.webhookId;
      const data = {
        requestId: 'req_abc12345678',
        agentId,
        capabilityId: 'translate',
        executionTime: 12,
        earnings: '0.009500',
      };
      const eventId = await emit('execution.completed', data);
      expect(await fanout.execute(eventId)).toBe(3);
      expect(await fanout.execute(eventId)).toBe(0); // published once
      expect(await attemptsOf(otherType)).toEqual([]);
      for (const sub of [whsec, plain, none]) {
        const [row] = await attemptsOf(sub);
        expect(await deliveries.execute(row.id)).toBe('succeeded');
        expect(await deliveries.execute(row.id)).toBe('skipped');
      }
      expect(receiver.received).toHaveLength(3);
      const [event] = await ds.query(`SELECT created_at FROM outbox_events WHERE id = $1`, [eventId]);
      const bySub = (id: string) => receiver.received.find((r) => r.headers['x-webhook-id'] === id)!;
      for (const sub of [whsec, plain, none]) {
        const r = bySub(sub);
        expect(r.body).toEqual({
          id: eventId,
          type: 'execution.completed',
          timestamp: new Date(event.created_at).toISOString(),
          data,
        });
        expect(r.headers['content-type']).toBe('application/json');
        expect(r.headers['x-event-id']).toBe(eventId);
        expect(r.headers['x-timestamp']).toBe(String(Math.floor(new Date(event.created_at).getTime() / 1000)));
        expect(r.headers['webhook-id']).toBe(eventId);
        expect(Math.abs(Number(r.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
      }
      // X-Signature: HMAC-SHA256 hex of the exact body; webhook-signature verified by the standardwebhooks library.
      const w = bySub(whsec);
      expect(w.headers['x-signature']).toBe(
        createHmac('sha256', Buffer.from(WHSEC.slice(6), 'base64'))
          .update(w.raw)
          .digest('hex'),
      );
      expect(new Webhook(WHSEC).verify(w.raw, w.headers as Record<string, string>)).toEqual(w.body);
      const p = bySub(plain);
      expect(p.headers['x-signature']).toBe(createHmac('sha256', PLAIN_SECRET).update(p.raw).digest('hex'));
      expect(
        new Webhook(Buffer.from(PLAIN_SECRET), { format: 'raw' }).verify(p.raw, p.headers as Record<string, string>),
      ).toEqual(p.body);
      // A tampered body or another secret does not verify.
      expect(() =>
        new Webhook(WHSEC).verify(w.raw.replace('0.009500', '9.009500'), w.headers as Record<string, string>),
      ).toThrow();
      expect(() =>
        new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(w.raw, w.headers as Record<string, string>),
      ).toThrow();
      const n = bySub(none);
      expect(n.headers['x-signature']).toBeUndefined();
      expect(n.headers['webhook-signature']).toBeUndefined();
      for (const sub of [whsec, plain, none])
        await api.request('DELETE', `/api/v1/webhooks/${sub}`, {
          headers: await signed(`DELETE /api/v1/webhooks/${sub}`),
        });
      await api.request('DELETE', `/api/v1/webhooks/${otherType}`, {
        headers: await signed(`DELETE /api/v1/webhooks/${otherType}`),
      });
    });

    it('fans a batch out at once: each event to its own subscribers, published once; one locked by another fan-out is left to it', async () => {
      const completed = (await subscribe({ events: ['execution.completed'] })).body.data.webhookId;
      const released = (await subscribe({ events: ['escrow.released'] })).body.data.webhookId;
      const [a, b, c] = [
        await emit('execution.completed'),
        await emit('escrow.released'),
        await emit('escrow.released'),
      ];
      const other = ds.createQueryRunner();
      await other.connect();
      await other.startTransaction();
      try {
        await other.query(`SELECT id FROM outbox_events WHERE id = $1 FOR UPDATE`, [c]);
        expect(await fanout.execute([a, b, a, c])).toBe(2);
      } finally {
        await other.rollbackTransaction();
        await other.release();
      }
      expect(await attemptsOf(completed)).toHaveLength(1);
      expect(await attemptsOf(released)).toHaveLength(1);
      expect(await fanout.execute([a, b, c])).toBe(1); // only c was left
      expect(await attemptsOf(released)).toHaveLength(2);
      const [published] = await ds.query(
        `SELECT count(*)::int AS n FROM outbox_events WHERE id = ANY($1) AND published_at IS NOT NULL`,
        [[a, b, c]],
      );
      expect(published.n).toBe(3);
      expect(await fanout.execute([])).toBe(0);
      for (const sub of [completed, released])
        await api.request('DELETE', `/api/v1/webhooks/${sub}`, {
          headers: await signed(`DELETE /api/v1/webhooks/${sub}`),
        });
    });

    it('a 410 marks the subscription failed at once: no further attempt, no further event', async () => {
      const sub = (await subscribe({ events: ['escrow.released'] })).body.data.webhookId;
      receiver.status = 410;
      await fanout.execute(await emit('escrow.released'));
      const [first] = await attemptsOf(sub);
      expect(await deliveries.execute(first.id)).toBe('failed');
      expect(await attemptsOf(sub)).toEqual([
        expect.objectContaining({ attempt: 1, status: 'failed', response_status: 410 }),
      ]);
      const list = (await api.request('GET', `/api/v1/webhooks/agent/${agentId}`)).body.data.webhooks;
      expect(list.find((w: { id: string }) => w.id === sub).status).toBe('failed');
      await fanout.execute(await emit('escrow.released'));
      expect(await attemptsOf(sub)).toHaveLength(1);
    });

    it('schedules the next attempt no sooner than Retry-After, and records each attempt as a row', async () => {
      const sub = (await subscribe({ events: ['escrow.released'] })).body.data.webhookId;
      receiver.reply = () => ({ status: 503, headers: { 'Retry-After': '3' } });
      await fanout.execute(await emit('escrow.released'));
      const [first] = await attemptsOf(sub);
      const before = Date.now();
      expect(await deliveries.execute(first.id)).toBe('retry');
      const [, second] = await attemptsOf(sub);
      expect(second).toMatchObject({ attempt: 2, status: 'pending' });
      expect(new Date(second.scheduled_at).getTime() - before).toBeGreaterThanOrEqual(2_900); // configured delay is 200 ms
      expect(await deliveries.execute(second.id)).toBe('skipped'); // not due yet
      await api.request('DELETE', `/api/v1/webhooks/${sub}`, {
        headers: await signed(`DELETE /api/v1/webhooks/${sub}`),
      });
      expect((await attemptsOf(sub))[1].status).toBe('cancelled');
    });

    it('caps Retry-After at the last delay of the schedule: a huge value still schedules a valid attempt within it', async () => {
      const sub = (await subscribe({ events: ['escrow.released'] })).body.data.webhookId;
      for (const retryAfter of ['99999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT']) {
        receiver.reply = () => ({ status: 503, headers: { 'Retry-After': retryAfter } });
        await fanout.execute(await emit('escrow.released'));
        const first = (await attemptsOf(sub)).at(-1)!;
        const before = Date.now();
        expect(await deliveries.execute(first.id)).toBe('retry');
        const after = Date.now();
        const rows = await attemptsOf(sub);
        const [done, next] = [rows.find((r: { id: string }) => r.id === first.id), rows.at(-1)];
        expect(done.status).toBe('failed');
        expect(next).toMatchObject({ attempt: 2, status: 'pending' });
        const at = new Date(next.scheduled_at).getTime();
        expect(at - before).toBeGreaterThanOrEqual(5_000); // the schedule's last delay (5 s), not the 0.2 s of the second attempt
        expect(at - after).toBeLessThanOrEqual(5_000);
      }
    });
  });
});
