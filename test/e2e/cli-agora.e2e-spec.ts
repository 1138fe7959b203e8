import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { RunningProcess, startProcess, builtApp } from '../support/processes';
import { newWallet } from '../support/wallets';

const CLI = join(__dirname, '..', '..', 'apps', 'agora', 'bin', 'agora.js');
const PASSWORD = 'correct horse battery';

/**
 * The `agora` CLI (apps/agora, on the SDK only) driven as a child process against the real api and
 * a worker: the whole journey in tables and in --json, a wrong password, an unreachable API, a spend
 * cap and an unconfirmed price, each with its exit code.
 */
describe('agora CLI (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentServer: TestAgentServer;
  let receiver: JsonReceiver;
  let worker: RunningProcess;
  let dir: string;
  let agentId: string;

  beforeAll(async () => {
    agentServer = await new TestAgentServer().start();
    receiver = await new JsonReceiver().start();
    api = await startApi({
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_AGENT_PER_MIN: '1000000',
    });
    ds = api.app.get(DataSource);
    worker = startProcess(builtApp('worker'), { ...api.env, LOG_LEVEL: 'warn' });
    dir = mkdtempSync(join(tmpdir(), 'agora-cli-'));
  }, 60_000);
  afterAll(async () => {
    worker.child.kill('SIGTERM');
    await worker.exited;
    await api.close();
    await agentServer.stop();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `agora <args>` against the api with the test keystore; answers exit code, stdout and stderr. */
  const agora = async (args: string[], env: Record<string, string> = {}) => {
    const p = startProcess(
      CLI,
      { AGORA_URL: api.baseUrl, AGORA_KEYSTORE: join(dir, 'keystore.json'), AGORA_PASSWORD: PASSWORD, ...env },
      args,
    );
    const code = await p.exited;
    return { code, out: p.output() };
  };
  const json = async (args: string[], env: Record<string, string> = {}) => {
    const r = await agora(['--json', ...args], env);
    return { code: r.code, data: JSON.parse(r.out) };
  };

  it('creates a wallet in an encrypted keystore, shows it, and refuses a second create over it', async () => {
    const created = await agora(['wallet', 'create']);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/Wallet created[\s\S]*address[\s\S]*0x[0-9a-fA-F]{40}/);
    const shown = await json(['wallet', 'show']);
    expect(shown.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(created.out).toContain(shown.data.address);
    // Encrypted (scrypt keystore JSON), readable by its owner only.
    const keystore = join(dir, 'keystore.json');
    expect(statSync(keystore).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(keystore, 'utf8'))).toMatchObject({
      Crypto: { kdf: 'scrypt', cipher: 'aes-128-ctr', kdfparams: { n: 131072 } },
    });
    expect((await agora(['wallet', 'create'])).code).toBe(2);
  }, 60_000);

  it('registers an agent (paying the fee), then finds it with discover, recommend and agent', async () => {
    const file = join(dir, 'agent.json');
    const { wallet: _w, ...registration } = agentPayload(newWallet(), {
      name: 'CLI Translator',
      endpoints: { execution: agentServer.url },
    });
    writeFileSync(file, JSON.stringify(registration));
    const registered = await agora(['register', '--file', file]);
    expect(registered.code).toBe(0);
    expect(registered.out).toMatch(/Agent registered[\s\S]*CLI Translator[\s\S]*0\.100000/);
    agentId = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(registered.out)![0];
    const table = await agora(['discover', '--capability', 'translate']);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(new RegExp(`${agentId}[\\s\\S]*CLI Translator`));
    const found = await json(['discover', '--capability', 'translate']);
    expect(found.data.agents.map((a: { id: string }) => a.id)).toContain(agentId);
    expect((await agora(['recommend', 'translate', 'text'])).out).toContain(agentId);
    expect((await json(['agent', agentId])).data).toMatchObject({ id: agentId, name: 'CLI Translator' });
  }, 60_000);

  it('executes sync and async, paying with the keystore wallet; reads the status with the payment header', async () => {
    const table = await agora(['execute', agentId, 'translate', '--input', '{"text":"hola"}']);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/completed[\s\S]*HOLA[\s\S]*0\.011000/);
    const paid = await json(['execute', agentId, 'translate', '--input', '{"text":"async"}', '--async']);
    expect(paid.code).toBe(0);
    expect(paid.data).toMatchObject({
      status: 'completed',
      output: { translation: 'ASYNC' },
      paid: '0.011000',
      payment: { name: 'PAYMENT-SIGNATURE' },
    });
    const status = await json([
      'status',
      paid.data.requestId,
      '--payment',
      `${paid.data.payment.name}:${paid.data.payment.value}`,
    ]);
    expect(status.data).toMatchObject({ status: 'completed', output: { translation: 'ASYNC' } });
  }, 60_000);

  it('pays once for an --idempotency-key used twice: the same requestId, one charge; other input exits 1 with IDEMPOTENCY_CONFLICT', async () => {
    const address = (await json(['wallet', 'show'])).data.address;
    const charges = async () =>
      (
        await ds.query(`SELECT count(*)::int AS n FROM transactions WHERE lower(payer_wallet) = lower($1)`, [address])
      )[0].n as number;
    const before = await charges();
    const run = ['execute', agentId, 'translate', '--input', '{"text":"una vez"}', '--idempotency-key', 'cli-key-1'];
    const first = await json(run);
    const again = await json(run);
    expect(first.code).toBe(0);
    expect(again.data).toMatchObject({
      requestId: first.data.requestId,
      transactionId: first.data.transactionId,
      output: { translation: 'UNA VEZ' },
    });
    expect(await charges()).toBe(before + 1);
    const conflict = await agora([
      'execute',
      agentId,
      'translate',
      '--input',
      '{"text":"otra"}',
      '--idempotency-key',
      'cli-key-1',
    ]);
    expect(conflict.code).toBe(1);
    expect(conflict.out).toContain('IDEMPOTENCY_CONFLICT');
    expect(await charges()).toBe(before + 1);
  }, 60_000);

  it('asks before paying above the threshold (refused without a terminal, nothing paid) and pays with --yes', async () => {
    const address = (await json(['wallet', 'show'])).data.address.toLowerCase();
    const payments = async () =>
      (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [address]))[0].n as number;
    const before = await payments();
    const refused = await agora([
      'execute',
      agentId,
      'translate',
      '--input',
      '{"text":"x"}',
      '--confirm-above',
      '0.001',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/needs a terminal/);
    expect(await payments()).toBe(before);
    expect(
      (await agora(['execute', agentId, 'translate', '--input', '{"text":"x"}', '--confirm-above', '0.001', '--yes']))
        .code,
    ).toBe(0);
    expect(await payments()).toBe(before + 1);
    const capped = await agora(['execute', agentId, 'translate', '--input', '{"text":"x"}', '--max-per-call', '0.005']);
    expect(capped.code).toBe(5);
    expect(capped.out).toMatch(/SPEND_CAP_EXCEEDED/);
    expect(await payments()).toBe(before + 1);
  }, 60_000);
});
