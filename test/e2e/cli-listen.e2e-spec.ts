import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { OutboxService } from '@app/outbox';
import { startApi, ApiHarness } from '../support/api-harness';
import { cliRunner } from '../support/cli';
import { agentPayload, registerAgent } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

const PASSWORD = 'correct horse battery';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/**
 * `agora listen --forward-to`: an agent's events (GET /events, signed by the keystore's wallet)
 * POSTed to a local server as its webhooks are (body and signatures), in order, each once; Ctrl-C
 * stops it and a new listen resumes after the last event forwarded.
 */
describe('agora listen --forward-to (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let receiver: JsonReceiver;
  let dir: string;
  let agentId: string;
  let otherId: string;
  let n = 0;
  const { start, json } = cliRunner(() => ({
    AGORA_URL: api.baseUrl,
    AGORA_KEYSTORE: join(dir, 'keystore.json'),
    AGORA_PASSWORD: PASSWORD,
  }));
  const emit = (id: string) =>
    ds.transaction((m) => api.app.get(OutboxService).record(m, 'escrow.released', id, { n: ++n }));
  // The secret from the environment (kept out of ps and the shell history), as the docs advise.
  const listen = () =>
    start(['listen', agentId, '--forward-to', receiver.url, '--interval', '200'], { AGORA_LISTEN_SECRET: SECRET });
  /** The events the local server took (a 2xx answer), in arrival order. */
  const taken = () => receiver.received.filter((_r, i) => i !== 0).map((r) => r.body);

  beforeAll(async () => {
    receiver = await new JsonReceiver().start();
    // The first POST is refused: the listener sends that event again, and never skips it.
    receiver.reply = (i) => ({ status: i === 0 ? 503 : 204 });
    api = await startApi();
    ds = api.app.get(DataSource);
    dir = mkdtempSync(join(tmpdir(), 'agora-cli-listen-'));
    await json(['wallet', 'create']);
    const file = join(dir, 'agent.json');
    const { wallet: _w, ...registration } = agentPayload(newWallet(), { name: 'Listened Agent' });
    writeFileSync(file, JSON.stringify(registration));
    agentId = (await json(['register', '--file', file])).data.id;
    otherId = (await registerAgent(api, newWallet())).body.data.id;
  }, 60_000);
  afterAll(async () => {
    await api.close();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('forwards each event once, in order, signed as a webhook; stops on Ctrl-C and resumes after its cursor', async () => {
    const first = [await emit(agentId), await emit(otherId), await emit(agentId), await emit(agentId)];
    const listener = listen();
    await waitFor(async () => taken().length >= 3, 'the first three events', 20_000);
    const more = [await emit(agentId), await emit(agentId)];
    await waitFor(async () => taken().length >= 5, 'the events recorded while listening');
    listener.child.kill('SIGINT');
    expect(await listener.exited).toBe(0);
    expect(listener.output()).toMatch(/Stopped: 5 event\(s\) forwarded; resumes after \d+\.evt_/);
    expect(listener.output()).toMatch(
      new RegExp(`escrow\\.released\\s+${first[0]}\\s+-> 503, retrying[\\s\\S]*${first[0]}\\s+-> 204`),
    );

    const later = await emit(agentId);
    const again = listen();
    await waitFor(async () => taken().length >= 6, 'the event recorded while stopped');
    again.child.kill('SIGINT');
    expect(await again.exited).toBe(0);

    const ids = [first[0], first[2], first[3], ...more, later];
    expect(taken().map((b) => b.id)).toEqual(ids);
    expect(receiver.received[0].body.id).toBe(first[0]);
    expect(taken().map((b) => b.data.n)).toEqual([1, 3, 4, 5, 6, 7]);
    // The body and headers of a webhook delivery: a local server verifies them as it would in production.
    for (const r of receiver.received.slice(1)) {
      expect(r.body).toEqual({
        id: expect.stringMatching(/^evt_/),
        type: 'escrow.released',
        timestamp: expect.any(String),
        data: { n: expect.any(Number) },
      });
      expect(r.headers['x-event-id']).toBe(r.body.id);
      expect(r.headers['x-signature']).toBe(
        createHmac('sha256', Buffer.from(SECRET.slice(6), 'base64'))
          .update(r.raw)
          .digest('hex'),
      );
      expect(new Webhook(SECRET).verify(r.raw, r.headers as Record<string, string>)).toEqual(r.body);
    }
  }, 60_000);

  it('refuses a malformed --forward-to, --after or --secret, and a listen for an agent the wallet does not own', async () => {
    const bad = start(['listen', agentId, '--forward-to', 'localhost:8080']);
    expect(await bad.exited).toBe(2);
    expect(await start(['listen', agentId, '--forward-to', receiver.url, '--after', 'nope']).exited).toBe(2);
    expect(
      await start(['listen', agentId, '--forward-to', receiver.url, '--secret', 'whsec_not*base64*at*all*here']).exited,
    ).toBe(2);
    const notMine = start(['listen', otherId, '--forward-to', receiver.url]);
    expect(await notMine.exited).toBe(1);
    expect(notMine.output()).toMatch(/UNAUTHORIZED|FORBIDDEN|SIGNATURE/);
  }, 30_000);
});
