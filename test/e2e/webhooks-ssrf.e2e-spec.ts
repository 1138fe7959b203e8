import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { DeliverAttempt, EventFanout } from '@app/webhooks';
import { startApi, ApiHarness } from '../support/api-harness';
import { registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { newWallet, walletHeaders } from '../support/wallets';

/** The outbound guard on subscription URLs: at creation, and again at every connection. */
describe('Webhooks: SSRF guard (e2e)', () => {
  let api: ApiHarness;
  let receiver: JsonReceiver;
  let owner: Wallet;
  let agentId: string;
  let ts = Date.now();

  beforeAll(async () => {
    receiver = await new JsonReceiver().start();
    api = await startApi(); // production-like outbound policy: HTTPS, public addresses only
    owner = newWallet();
    agentId = (await registerAgent(api, owner)).body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await receiver.stop();
  });

  const corpus = [
    'http://hooks.example.com/x',
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://api.localhost/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[::ffff:7f00:1]/x',
    'https://2130706433/x',
    'https://0x7f000001/x',
    'https://0177.0.0.1/x',
    'https://127.1/x',
    'https://0.0.0.0/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://metadata.google.internal/x',
    'https://10.0.0.1/x',
    'https://172.16.0.1/x',
    'https://192.168.1.1/x',
    'https://100.64.0.1/x',
    'https://[fd00::1]/x',
    'https://[fe80::1]/x',
    'https://[64:ff9b::7f00:1]/x',
    'https://user:pass@hooks.example.com/x',
  ];

  it(`refuses ${corpus.length} internal or malformed URLs at creation, storing nothing`, async () => {
    for (const url of corpus) {
      const res = await api.request('POST', '/api/v1/webhooks', {
        body: { agentId, url, events: ['escrow.released'] },
        headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks', ++ts),
      });
      expect({ url, status: res.status, field: res.body.error?.details?.errors?.[0]?.field }).toEqual({
        url,
        status: 400,
        field: 'url',
      });
    }
    expect((await api.app.get(DataSource).query(`SELECT count(*)::int AS n FROM webhook_subscriptions`))[0].n).toBe(0);
  });

  it('checks again at connection time: a subscription whose URL now points inside reaches no listener', async () => {
    const res = await api.request('POST', '/api/v1/webhooks', {
      body: { agentId, url: 'https://hooks.agora-test.invalid/x', events: ['escrow.released'] },
      headers: await walletHeaders(owner, agentId, 'POST /api/v1/webhooks', ++ts),
    });
    expect(res.status).toBe(201);
    const ds = api.app.get(DataSource);
    const deliveries = api.app.get(DeliverAttempt);
    for (const url of [
      `https://127.0.0.1:${receiver.port}/x`,
      `http://127.0.0.1:${receiver.port}/x`,
      `https://[::ffff:127.0.0.1]:${receiver.port}/x`,
    ]) {
      // As if the stored URL (or what its name resolves to) changed after the check.
      await ds.query(`UPDATE webhook_subscriptions SET url = $2, status = 'active' WHERE id = $1`, [
        res.body.data.webhookId,
        url,
      ]);
      const eventId = await ds.transaction((m) =>
        api.app.get(OutboxService).record(m, 'escrow.released', agentId, { amount: '1.000000' }),
      );
      await api.app.get(EventFanout).execute(eventId);
      const [row] = await ds.query(`SELECT id FROM webhook_deliveries WHERE event_id = $1`, [eventId]);
      expect(await deliveries.execute(row.id)).toBe('retry');
      const [after] = await ds.query(`SELECT status, error FROM webhook_deliveries WHERE id = $1`, [row.id]);
      expect(after.status).toBe('failed');
      expect(after.error).toMatch(/^blocked/);
    }
    expect(receiver.connections).toBe(0);
  });
});
