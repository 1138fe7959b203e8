import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { DeliverAttempt } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';
import { JsonReceiver } from '../support/json-receiver';

const DELAYS = [0, 200, 400, 600, 800];

/**
 * callbackUrl / webhookUrl: the result posted when complete, with the webhook retry schedule. The api runs on a
 * fixed clock the test moves to each attempt's scheduled time (webhook_deliveries.scheduled_at): no waiting.
 */
describe('execution callbacks (e2e)', () => {
  const clock = new FixedClock(new Date());
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let receiverUrl: string;
  let received: JsonReceiver['received'];
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    receiverUrl = receiver.url;
    received = receiver.received;
    api = await startApi(
      {
        OUTBOUND_ALLOW_HTTP: 'true',
        OUTBOUND_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_DELAYS_MS: DELAYS.join(','),
      },
      { clock },
    );
    const res = await registerAgent(api, newWallet(), {
      endpoints: { execution: agentServer.url },
      capabilities: [capabilityPayload()],
    });
    agentId = res.body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await agentServer.stop();
    await receiver.stop();
  });

  const execute = async (input: Record<string, unknown>, extra: Record<string, unknown>) => {
    const h = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
    return api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input, ...extra },
      headers: { [h.name]: h.value },
    });
  };
  /** The callback's delivery attempts, one row each (webhook_deliveries, kind callback). */
  const attempts = async (
    id: string,
  ): Promise<{ id: string; attempt: number; status: string; scheduled_at: Date; response_status: number | null }[]> =>
    api.app
      .get(DataSource)
      .query(
        `SELECT id, attempt, status, scheduled_at, response_status FROM webhook_deliveries WHERE kind = 'callback' AND execution_id = $1 ORDER BY attempt`,
        [id],
      );

  it('posts {requestId, status, output} to callbackUrl once the execution has settled, signed by the platform', async () => {
    receiver.status = 200;
    received.length = 0;
    const res = await execute({ text: 'salut' }, { callbackUrl: receiverUrl });
    expect(res.status).toBe(200);
    const id = res.body.data.requestId;
    const [first] = await attempts(id);
    expect(first).toMatchObject({ attempt: 1, status: 'pending' });
    const deliveries = api.app.get(DeliverAttempt);
    expect(await deliveries.execute(first.id)).toBe('succeeded');
    expect(await deliveries.execute(first.id)).toBe('skipped');
    expect(received).toHaveLength(1);
    expect(received[0].body).toEqual({ requestId: id, status: 'completed', output: { translation: 'SALUT' } });
    expect(received[0].headers['x-agora-signature']).toMatch(/^t=\d+,ed25519=/);
    expect(await attempts(id)).toEqual([
      expect.objectContaining({ attempt: 1, status: 'succeeded', response_status: 200 }),
    ]);
  });

  it('retries on the schedule and stops for good after the fifth failure (webhookUrl alias)', async () => {
    receiver.status = 500;
    received.length = 0;
    const res = await execute({ text: 'boom', mode: 'fail' }, { webhookUrl: receiverUrl });
    expect(res.status).toBe(502);
    const id = res.body.error.details.requestId;
    const deliveries = api.app.get(DeliverAttempt);
    const outcomes: string[] = [];
    for (let i = 0; i < 5; i++) {
      const row = (await attempts(id))[i];
      const due = new Date(row.scheduled_at).getTime();
      if (i > 0) {
        // Scheduled the configured delay (+-10% jitter) after the failed attempt, on the clock that ran it.
        expect(due - clock.nowMs()).toBeGreaterThanOrEqual(Math.round(DELAYS[i] * 0.9));
        expect(due - clock.nowMs()).toBeLessThanOrEqual(Math.round(DELAYS[i] * 1.1));
        // Not sent a millisecond before its time.
        clock.set(new Date(due - 1));
        expect(await deliveries.execute(row.id)).toBe('skipped');
        clock.set(new Date(due));
      }
      outcomes.push(await deliveries.execute(row.id));
    }
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'retry', 'failed']);
    const rows = await attempts(id);
    expect(rows).toHaveLength(5); // no sixth attempt
    expect(rows.map((r) => r.status)).toEqual(['failed', 'failed', 'failed', 'failed', 'failed']);
    expect(received).toHaveLength(5);
    expect(received[0].body).toEqual({ requestId: id, status: 'failed', error: expect.stringMatching(/500/) });
  });
});

describe('the example agent checks the platform signature (e2e)', () => {
  it('serves calls signed by the platform and refuses a forged one', async () => {
    const api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    const agent = await new TestAgentServer(api.baseUrl).start();
    try {
      const agentId = (await registerAgent(api, newWallet(), { endpoints: { execution: agent.url } })).body.data.id;
      agent.serve(agentId);
      const h = await x402Header(newWallet(), { amount: 11_000n, payTo: api.config.platformWallet });
      const res = await api.request('POST', '/api/v1/execute', {
        body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'signed' } },
        headers: { [h.name]: h.value },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.output).toEqual({ translation: 'SIGNED' });
      const forged = await fetch(agent.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-agora-signature': `t=${Math.floor(Date.now() / 1000)},ed25519=${Buffer.alloc(64).toString('base64')}`,
        },
        body: JSON.stringify({
          agentId,
          requestId: 'req_forged000000',
          capabilityId: 'translate',
          input: { text: 'x' },
        }),
      });
      expect(forged.status).toBe(401);
    } finally {
      await agent.stop();
      await api.close();
    }
  });
});
