import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { cliRunner, inPseudoTerminal } from '../support/cli';
import { agentPayload } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
import { RunningProcess, startProcess, builtApp, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PASSWORD = 'correct horse battery';

/**
 * The `agora` commands added for issue 30, each against the real api (and a worker): init, the
 * saved profile, agent update/deactivate, withdrawals, webhook deliveries, reputation, analytics,
 * chains; and the fixes: a bounded spinner on a 0-column terminal, malformed flags as usage errors.
 */
describe('agora CLI commands (e2e)', () => {
  let api: ApiHarness;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let worker: RunningProcess;
  let dir: string;
  let agentId: string;
  const keystore = () => join(dir, 'keystore.json');
  const { agora, json } = cliRunner(() => ({
    AGORA_URL: api.baseUrl,
    AGORA_KEYSTORE: keystore(),
    AGORA_PASSWORD: PASSWORD,
  }));

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
    });
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn' });
    dir = mkdtempSync(join(tmpdir(), 'agora-cli-commands-'));
    expect((await agora(['wallet', 'create'])).code).toBe(0);
    const file = join(dir, 'translator.json');
    const { wallet: _w, ...registration } = agentPayload(newWallet(), {
      name: 'CLI Commands Translator',
      endpoints: { execution: agentServer.url },
    });
    writeFileSync(file, JSON.stringify(registration));
    const registered = await json(['register', '--file', file]);
    expect(registered.code).toBe(0);
    agentId = registered.data.id;
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
    await agentServer.stop();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('on a terminal reporting 0 columns, --async shows a bounded progress and exits with the result', async () => {
    const run = await inPseudoTerminal(['execute', agentId, 'translate', '--input', '{"text":"spin"}', '--async'], {
      TERM: 'xterm-256color',
      AGORA_URL: api.baseUrl,
      AGORA_KEYSTORE: keystore(),
      AGORA_PASSWORD: PASSWORD,
    });
    expect(run.killed).toBe(false);
    expect(run.code).toBe(0);
    expect(run.screen).toMatch(/waiting for the run[\s\S]*run completed[\s\S]*SPIN/);
    expect(run.screen.length).toBeLessThan(10_000);
  }, 60_000);

  it('reports a malformed --payment, --api or AGORA_URL as a usage error (exit 2), an unreachable one as 3', async () => {
    for (const payment of ['garbage', ':value', 'NAME:', 'bad name:value']) {
      const r = await agora(['status', 'req_abcdefghijkl', '--payment', payment]);
      expect({ payment, code: r.code, out: r.out }).toEqual({
        payment,
        code: 2,
        out: expect.stringMatching(/--payment must be the header that paid, as NAME:VALUE/),
      });
    }
    for (const url of ['notaurl', 'ftp://example.com', 'http://']) {
      const flag = await agora(['--api', url, 'discover']);
      expect({ url, code: flag.code, out: flag.out }).toEqual({
        url,
        code: 2,
        out: expect.stringMatching(/--api must be an http\(s\) URL/),
      });
      expect((await agora(['discover'], { AGORA_URL: url })).code).toBe(2);
    }
    expect((await agora(['--api', `http://127.0.0.1:${await freePort()}`, 'discover'])).code).toBe(3);
  }, 60_000);

  it('init writes an agent.json that registers as it is, and refuses to overwrite it without --force', async () => {
    const file = join(dir, 'agent.json');
    const init = await agora(['init', '--file', file, '--name', 'Init Agent', '--endpoint', agentServer.url]);
    expect(init.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      name: 'Init Agent',
      endpoints: { execution: agentServer.url },
      capabilities: [{ id: 'echo' }],
    });
    expect((await agora(['init', '--file', file])).code).toBe(2);
    expect((await agora(['init', '--file', file, '--force', '--name', 'Init Agent'])).code).toBe(0);
    const registered = await json(['register', '--file', file]);
    expect(registered).toMatchObject({
      code: 0,
      data: { name: 'Init Agent', status: 'active', capabilities: [{ id: 'echo' }] },
    });
  }, 60_000);

  it('saves the api URL in the profile beside the keystore; AGORA_URL and --api still win', async () => {
    const base = { AGORA_URL: '' };
    const unset = await agora(['config', 'set', 'api', 'not a url'], base);
    expect(unset.code).toBe(2);
    expect((await agora(['config', 'set', 'api', api.baseUrl], base)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'))).toEqual({ api: api.baseUrl });
    expect((await json(['config', 'get', 'api'], base)).data).toEqual({ api: api.baseUrl });
    // No flag, no AGORA_URL: the profile's API answers.
    const noEnv = cliRunner(() => ({ AGORA_KEYSTORE: keystore(), AGORA_PASSWORD: PASSWORD }));
    expect((await noEnv.json(['agent', agentId])).data).toMatchObject({ id: agentId });
    const elsewhere = `http://127.0.0.1:${await freePort()}`;
    expect((await noEnv.agora(['agent', agentId], { AGORA_URL: elsewhere })).code).toBe(3);
    expect((await noEnv.agora(['--api', api.baseUrl, 'agent', agentId], { AGORA_URL: elsewhere })).code).toBe(0);
    expect((await noEnv.agora(['config', 'unset', 'api'])).code).toBe(0);
    expect((await noEnv.json(['config', 'get'])).data).toEqual({ file: join(dir, 'config.json') });
  }, 60_000);

  it('updates and deactivates an agent, signed by its wallet; deactivating asks (refused without a terminal)', async () => {
    const file = join(dir, 'other.json');
    const { wallet: _w, ...registration } = agentPayload(newWallet(), {
      name: 'To Change',
      endpoints: { execution: agentServer.url },
    });
    writeFileSync(file, JSON.stringify(registration));
    const id = (await json(['register', '--file', file])).data.id;
    const updated = await agora(['agent', 'update', id, '--name', 'Changed Name', '--description', 'Now different']);
    expect(updated.code).toBe(0);
    expect(updated.out).toMatch(/Agent updated[\s\S]*Changed Name/);
    expect((await json(['agent', id])).data).toMatchObject({ name: 'Changed Name', description: 'Now different' });
    expect((await agora(['agent', 'update', id])).code).toBe(2);
    expect((await agora(['agent', 'deactivate', id])).code).toBe(2);
    expect((await agora(['agent', 'deactivate', id, '--yes'])).code).toBe(0);
    expect((await json(['agent', 'show', id])).data).toMatchObject({ status: 'inactive' });
  }, 60_000);

  it('lists withdrawals and shows one', async () => {
    await seedCharge(api.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const withdrawn = await json(['withdraw', agentId, '1.20', newWallet().address]);
    expect(withdrawn.code).toBe(0);
    const id = withdrawn.data.withdrawalId;
    const list = await agora(['withdrawals', agentId]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(new RegExp(`${id}[\\s\\S]*1\\.200000`));
    expect(
      (await json(['withdrawals', agentId, '--limit', '5'])).data.withdrawals.map((w: { id: string }) => w.id),
    ).toContain(id);
    expect((await json(['withdrawal', id])).data).toMatchObject({ id, agent_id: agentId, amount: '1.200000' });
    expect((await agora(['withdrawals', agentId, '--limit', '0'])).code).toBe(2);
  }, 60_000);

  it("lists a webhook's deliveries and redelivers one", async () => {
    const hook = await json(['webhooks', 'create', agentId, receiver.url, '--events', 'execution.completed']);
    expect(hook.code).toBe(0);
    const run = await json(['execute', agentId, 'translate', '--input', '{"text":"hooked"}']);
    expect(run.code).toBe(0);
    await waitFor(
      async () => receiver.received.some((r) => r.body?.data?.requestId === run.data.requestId),
      'the webhook delivery',
    );
    const deliveries = await waitFor(async () => {
      const d = await json(['webhooks', 'deliveries', hook.data.webhookId, '--agent', agentId]);
      return d.data.deliveries?.find((x: { status: string }) => x.status === 'succeeded') ? d : null;
    }, 'a succeeded delivery');
    const deliveryId = deliveries.data.deliveries[0].deliveryId;
    expect((await agora(['webhooks', 'deliveries', hook.data.webhookId, '--agent', agentId])).out).toContain(
      deliveryId,
    );
    const before = receiver.received.length;
    const again = await json(['webhooks', 'redeliver', hook.data.webhookId, deliveryId, '--agent', agentId]);
    expect(again).toMatchObject({ code: 0, data: { manual: true } });
    await waitFor(async () => receiver.received.length > before, 'the redelivery');
    expect(receiver.received[before].body.data.requestId).toBe(run.data.requestId);
  }, 60_000);

  it('shows reputation, the leaderboard and analytics', async () => {
    const score = await json(['reputation', agentId]);
    expect(score).toMatchObject({ code: 0, data: { agentId, score: expect.any(Number), tier: expect.any(String) } });
    expect((await agora(['reputation', 'score', agentId])).out).toMatch(/tier/);
    const board = await json(['reputation', 'leaderboard', '--limit', '50']);
    expect(board.data.leaderboard.map((e: { agentId: string }) => e.agentId)).toContain(agentId);
    expect((await agora(['reputation', 'leaderboard'])).out).toMatch(/rank[\s\S]*CLI Commands Translator/);
    const stats = await json(['analytics', agentId, '--period', 'all']);
    expect(stats).toMatchObject({
      code: 0,
      data: { agentId, period: 'all', executions: { successful: expect.any(Number) } },
    });
    expect(stats.data.executions.successful).toBeGreaterThanOrEqual(1);
    expect((await agora(['analytics', agentId, '--period', 'year'])).code).toBe(2);
  }, 60_000);

  it("estimates a chain's budget, and shows a chain and its cost", async () => {
    const check = await json([
      'chains',
      'budget-check',
      agentId,
      'translate',
      '--input',
      '{"text":"x"}',
      '--depth',
      '2',
    ]);
    expect(check).toMatchObject({
      code: 0,
      data: { estimatedTotal: expect.any(String), recommendedBudget: expect.any(String) },
    });
    expect((await agora(['chains', 'budget-check', agentId, 'translate', '--input', '[]'])).code).toBe(2);
    // The keystore's wallet pays for the chain: as its payer (`--signed`) it sees the request ids (issue 52).
    const payer = new Wallet((await Wallet.fromEncryptedJson(readFileSync(keystore(), 'utf8'), PASSWORD)).privateKey);
    const pay = await x402Header(payer, { amount: 11_000n + 100_000n, payTo: api.config.platformWallet });
    const opened = await api.request('POST', '/api/v1/execute', {
      body: {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'chained' },
        chain: { budget: '0.10' },
      },
      headers: { [pay.name]: pay.value },
    });
    expect(opened.status).toBe(200);
    const chainId = opened.body.data.chain.chainId;
    const chain = await json(['chains', 'get', chainId, '--signed']);
    expect(chain).toMatchObject({ code: 0, data: { chainId, rootRequestId: opened.body.data.requestId } });
    // The pre-1.2.0 flag still works (deprecated): it reads as `--signed`.
    const legacy = await json(['chains', 'get', chainId, '--payment', `${pay.name}:${pay.value}`]);
    expect(legacy).toMatchObject({ code: 0, data: { chainId, rootRequestId: opened.body.data.requestId } });
    // Anyone else (no wallet) sees the chain without its request ids.
    expect(await json(['chains', 'get', chainId])).toMatchObject({ code: 0, data: { chainId, rootRequestId: null } });
    const cost = await json(['chains', 'cost', chainId]);
    expect(cost).toMatchObject({ code: 0, data: { chainId, totalCost: expect.any(String) } });
    expect((await agora(['chains', 'get', 'chn_doesnotexist0'])).code).toBe(1);
  }, 60_000);
});
