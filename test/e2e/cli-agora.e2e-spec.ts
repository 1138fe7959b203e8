import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { agentPayload } from '../support/factories';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
import { RunningProcess, startProcess, builtApp } from '../support/processes';
import { newWallet } from '../support/wallets';
import { answerInTerminal } from '../support/cli';

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
  /** `agora <args>` in a pseudo-terminal answering each prompt (test/support/cli.ts), against this api. */
  const inTerminal = (args: string[], answers: [RegExp, string][], env: Record<string, string> = {}) =>
    answerInTerminal(args, answers, { AGORA_URL: api.baseUrl, ...env });
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
    // --min-uptime reaches the API: an agent never probed has no uptime, so it is not listed.
    const healthy = await json(['discover', '--capability', 'translate', '--min-uptime', '0.5']);
    expect(healthy.data.agents.map((a: { id: string }) => a.id)).not.toContain(agentId);
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
    // Without the header: `--signed`, the keystore's wallet (its payer) signs its read (issue 52); unsigned, no output.
    const signed = await json(['status', paid.data.requestId, '--signed']);
    expect(signed.data).toMatchObject({ status: 'completed', output: { translation: 'ASYNC' } });
    expect((await json(['status', paid.data.requestId])).data.output).toBeUndefined();
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

  it('shows the balance, withdraws and lists the history, signed by the owner', async () => {
    await seedCharge(api.app, { agentId, agentFee: 2_000_000n, reputation: 90 });
    const balance = await agora(['balance', agentId]);
    expect(balance.out).toMatch(/available/);
    const withdrawn = await json(['withdraw', agentId, '1.50', newWallet().address]);
    expect(withdrawn).toMatchObject({
      code: 0,
      data: { amount: '1.500000', fee: '0.100000', withdrawalId: expect.stringMatching(/^wd_/) },
    });
    const history = await agora(['history', agentId]);
    expect(history.code).toBe(0);
    expect(history.out).toMatch(/translate[\s\S]*row\(s\)/);
  }, 60_000);

  it('manages webhooks and files, answers and reads a dispute', async () => {
    const created = await json([
      'webhooks',
      'create',
      agentId,
      receiver.url,
      '--events',
      'execution.completed,dispute.filed',
    ]);
    expect(created.code).toBe(0);
    expect((await agora(['webhooks', 'list', agentId])).out).toContain(created.data.webhookId);
    expect((await agora(['webhooks', 'delete', created.data.webhookId, '--agent', agentId])).code).toBe(0);
    const run = await json(['execute', agentId, 'translate', '--input', '{"text":"disputed"}']);
    const filed = await json(['disputes', 'file', run.data.transactionId, '--reason', 'Wrong language']);
    expect(filed).toMatchObject({ code: 0, data: { disputeId: expect.stringMatching(/^dsp_/), status: 'pending' } });
    expect(
      (await agora(['disputes', 'respond', filed.data.disputeId, '--agent', agentId, '--response', 'It was right']))
        .code,
    ).toBe(0);
    expect((await json(['disputes', 'get', filed.data.disputeId])).data).toMatchObject({
      status: 'responded',
      agentResponse: 'It was right',
    });
    expect((await agora(['disputes', 'list', agentId])).out).toContain(filed.data.disputeId);
  }, 60_000);

  it('in a terminal: asks for the password without echoing it, and asks before paying above the threshold', async () => {
    const keystore = join(dir, 'prompted.json');
    const password = 'typed at the prompt';
    const created = await inTerminal(
      ['--keystore', keystore, 'wallet', 'create'],
      [
        [/Keystore password: /, password],
        [/Repeat the password: /, password],
      ],
    );
    expect(created).toMatchObject({ code: 0, unanswered: 0 });
    expect(created.screen).toMatch(/Wallet created/);
    expect(created.screen).not.toContain(password);
    const address = (await json(['--keystore', keystore, 'wallet', 'show'])).data.address.toLowerCase();
    const payments = async () =>
      (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [address]))[0].n as number;
    const execute = [
      '--keystore',
      keystore,
      'execute',
      agentId,
      'translate',
      '--input',
      '{"text":"asked"}',
      '--confirm-above',
      '0.001',
    ];
    const declined = await inTerminal(execute, [[/Pay\? \[y\/N\] /, 'n']]);
    expect(declined).toMatchObject({ code: 5, unanswered: 0 });
    expect(declined.screen).toMatch(/This call may cost up to 0\.011000 USDC[\s\S]*Not confirmed; nothing was paid/);
    expect(await payments()).toBe(0);
    const accepted = await inTerminal(execute, [
      [/Pay\? \[y\/N\] /, 'y'],
      [/Keystore password: /, password],
    ]);
    expect(accepted).toMatchObject({ code: 0, unanswered: 0 });
    expect(accepted.screen).toMatch(/ASKED/);
    expect(await payments()).toBe(1);
  }, 60_000);

  it('in a terminal: Ctrl-C at the password prompt gives up cleanly (exit 4), nothing created', async () => {
    const keystore = join(dir, 'cancelled.json');
    const cancelled = await inTerminal(['--keystore', keystore, 'wallet', 'create'], [[/Keystore password: /, '\x03']]);
    expect(cancelled).toMatchObject({ code: 4, unanswered: 0 });
    expect(cancelled.screen).toMatch(/No password given \(cancelled\)/);
    expect(existsSync(keystore)).toBe(false);
  }, 60_000);

  it('fails clearly, with distinct exit codes: a wrong password, an unreachable API, an API refusal, bad usage', async () => {
    const wrong = await agora(['withdraw', agentId, '1.00', newWallet().address], {
      AGORA_PASSWORD: 'not the password',
    });
    expect(wrong.code).toBe(4);
    expect(wrong.out).toMatch(/Wrong password/);
    const unreachable = await agora(['discover'], { AGORA_URL: `http://127.0.0.1:${await freePort()}` });
    expect(unreachable.code).toBe(3);
    expect(unreachable.out).toMatch(/CONNECTION_FAILED: The agora API could not be reached \(ECONNREFUSED\)/);
    const refused = await json(['agent', '00000000-0000-4000-8000-000000000000']);
    expect(refused).toMatchObject({ code: 1, data: { success: false, error: { code: 'AGENT_NOT_FOUND' } } });
    expect((await agora(['execute', agentId, 'translate', '--input', 'not json'])).code).toBe(2);
    expect((await agora(['no-such-command'])).code).toBe(2);
  }, 60_000);
});
