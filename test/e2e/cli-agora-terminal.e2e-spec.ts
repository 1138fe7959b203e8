import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { JsonReceiver } from '../support/json-receiver';
import { seedCharge } from '../support/money';
import { freePort } from '../support/ports';
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
  /**
   * Runs `agora <args>` in a pseudo-terminal (util-linux `script`), answering each prompt when it
   * appears; answers exit code and everything the terminal showed.
   */
  const inTerminal = async (args: string[], answers: [RegExp, string][], env: Record<string, string> = {}) => {
    const quote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, CLI, ...args].map(quote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { PATH: process.env.PATH ?? '', TERM: 'dumb', AGORA_URL: api.baseUrl, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const pending = [...answers];
    const onData = (d: Buffer) => {
      screen += d.toString();
      while (pending.length && pending[0][0].test(screen)) {
        const [, answer] = pending.shift()!;
        screen += '\n';
        child.stdin.write(`${answer}\r`);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    child.stdin.end();
    return { code, screen, unanswered: pending.length };
  };
  const json = async (args: string[], env: Record<string, string> = {}) => {
    const r = await agora(['--json', ...args], env);
    return { code: r.code, data: JSON.parse(r.out) };
  };

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
