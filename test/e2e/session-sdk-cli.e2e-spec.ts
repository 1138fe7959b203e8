import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AgoraClient, AgoraError } from '@agora/sdk';
import { ApiHarness, startApi } from '../support/api-harness';
import { TestAgentServer } from '../support/agent-server';
import { chainInvariants } from '../support/chain-session';
import { CLI, cliRunner } from '../support/cli';
import { registerAgent } from '../support/factories';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

const MCP = join(__dirname, '..', '..', 'apps', 'mcp', 'bin', 'agora-mcp.js');
const CALL = 11_000n; // 0.001 + the translator's 0.010
const usdc = (m: bigint) => (Number(m) / 1e6).toFixed(6);

/**
 * Pay once, call many from the client side (issue 34): the SDK's `session()` and the CLI's
 * `agora session` open a chain with the first call, make the others with the latest token, and
 * close it at the end, reporting what was paid, spent and refunded; the platform's rows agree.
 */
describe('sessions in the SDK and the CLI (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let translator: TestAgentServer;
  let translatorId: string;

  beforeAll(async () => {
    translator = await new TestAgentServer().start();
    api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', REFUND_DUST_MICRO: '0' });
    ds = api.app.get(DataSource);
    translatorId = (await registerAgent(api, newWallet(), { endpoints: { execution: translator.url } })).body.data.id;
  });
  afterAll(async () => {
    await api.close();
    await translator.stop();
  });

  const invariants = () => chainInvariants(ds);
  const translate = (text: string) => ({ targetAgentId: translatorId, capabilityId: 'translate', input: { text } });
  const paymentsOf = async (wallet: string) =>
    (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [wallet.toLowerCase()]))[0].n;
  const refundOf = async (chainId: string) =>
    (await ds.query(`SELECT refunded::text, status FROM chains WHERE id = $1`, [chainId]))[0];

  it('the SDK session: one payment, four calls of the same capability, the rest refunded at close', async () => {
    const wallet = newWallet();
    const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet });
    const session = sdk.session({ budget: '0.05' });
    const answers = [];
    for (const text of ['one', 'two', 'three', 'four']) answers.push(await session.execute(translate(text)));
    expect(answers.map((a) => a.output)).toEqual(['ONE', 'TWO', 'THREE', 'FOUR'].map((t) => ({ translation: t })));
    // The first paid its price and the budget; the others spent the budget (the same agent, again and again).
    expect(answers.map((a) => a.paid)).toEqual([usdc(CALL + 50_000n), null, null, null]);
    expect(answers.map((a) => (a as { chain?: { remainingBudget: string } }).chain?.remainingBudget)).toEqual([
      '0.050000',
      '0.039000',
      '0.028000',
      '0.017000',
    ]);
    expect(await paymentsOf(wallet.address)).toBe(1);
    expect(sdk.spending.spent).toBe(usdc(CALL + 50_000n));
    const summary = await session.close();
    expect(summary).toEqual({
      chains: [
        {
          chainId: session.chainId ?? expect.any(String),
          paid: usdc(CALL + 50_000n),
          spent: usdc(4n * CALL),
          refunded: usdc(50_000n - 3n * CALL),
          calls: 4,
        },
      ],
      paid: usdc(CALL + 50_000n),
      spent: usdc(4n * CALL),
      refunded: usdc(50_000n - 3n * CALL),
      pending: 0,
      calls: 4,
    });
    // The platform agrees: the chain closed with that refund; paid = spent + refunded.
    expect(await refundOf(summary.chains[0].chainId)).toEqual({
      refunded: String(50_000n - 3n * CALL),
      status: 'completed',
    });
    // The spend cap counts what was signed: the refund is the server's word, not money the SDK saw come back.
    expect(sdk.spending.spent).toBe(usdc(CALL + 50_000n));
    // Closed again: the same summary (the chain read with the payment that opened it), nothing sent twice.
    expect((await session.close()).refunded).toBe(usdc(50_000n - 3n * CALL));
    expect(await invariants()).toEqual([]);
  });

  it('a session whose chain closed under it reopens one on the next call, or fails when told not to', async () => {
    const sdk = new AgoraClient({ baseUrl: api.baseUrl, wallet: newWallet() });
    // Calls made while the opening call runs wait for it: one chain, one payment.
    const racing = sdk.session({ budget: '0.05' });
    const both = await Promise.all([racing.execute(translate('r1')), racing.execute(translate('r2'))]);
    expect(both.map((a) => a.paid).filter(Boolean)).toHaveLength(1);
    const raced = await racing.close();
    expect(raced).toMatchObject({ calls: 2, pending: 0 });
    expect(raced.chains).toHaveLength(1);
    for (const reopen of [true, false]) {
      const session = sdk.session({ budget: '0.03', reopen });
      await session.execute(translate('x'));
      const first = session.chainId!;
      // Closed behind the session's back (another holder of its token): the next call finds it closed.
      const token = (session as unknown as { current: { token: string } }).current.token;
      expect((await sdk.closeChain(first, token)).status).toBe('completed');
      if (reopen) {
        const next = await session.execute(translate('y'));
        expect(next.paid).toBe(usdc(CALL + 30_000n));
        expect(session.chainId).not.toBe(first);
        expect((await session.close()).chains.map((c) => c.calls)).toEqual([1, 1]);
      } else {
        const err = await session.execute(translate('y')).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AgoraError);
        expect((err as AgoraError).code).toBe('CHAIN_NOT_FOUND');
      }
    }
  });

  it('agora session: calls from --calls or stdin lines, one payment, and the summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agora-cli-session-'));
    const { agora, json } = cliRunner(() => ({
      AGORA_URL: api.baseUrl,
      AGORA_KEYSTORE: join(dir, 'keystore.json'),
      AGORA_PASSWORD: 'a session password',
    }));
    const wallet = newWallet();
    expect((await agora(['wallet', 'import'], { AGORA_PRIVATE_KEY: wallet.privateKey })).code).toBe(0);
    const env = {};
    const calls = JSON.stringify([translate('uno'), translate('dos'), translate('tres')]);
    const run = await json(['session', '--budget', '0.04', '--calls', calls, '-y'], env);
    expect(run.code).toBe(0);
    expect(run.data.calls.map((c: { output: unknown }) => c.output)).toEqual([
      { translation: 'UNO' },
      { translation: 'DOS' },
      { translation: 'TRES' },
    ]);
    expect(run.data.session).toMatchObject({
      paid: usdc(CALL + 40_000n),
      spent: usdc(3n * CALL),
      refunded: usdc(40_000n - 2n * CALL),
      calls: 3,
    });
    expect(await paymentsOf(wallet.address)).toBe(1);
    expect(await refundOf(run.data.session.chains[0].chainId)).toMatchObject({ status: 'completed' });
    // The same with the calls as JSON lines on stdin (a blank line skipped).
    const child = spawn(process.execPath, [CLI, '--json', 'session', '--budget', '0.03', '-y'], {
      env: {
        PATH: process.env.PATH ?? '',
        AGORA_URL: api.baseUrl,
        AGORA_KEYSTORE: join(dir, 'keystore.json'),
        AGORA_PASSWORD: 'a session password',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stdin.end(`${JSON.stringify(translate('un'))}\n\n${JSON.stringify(translate('deux'))}\n`);
    expect(await new Promise((resolve) => child.on('exit', resolve))).toBe(0);
    const piped = JSON.parse(out);
    expect(piped.calls.map((c: { output: unknown }) => c.output)).toEqual([
      { translation: 'UN' },
      { translation: 'DEUX' },
    ]);
    expect(piped.session).toMatchObject({
      paid: usdc(CALL + 30_000n),
      spent: usdc(2n * CALL),
      refunded: usdc(30_000n - CALL),
    });
    expect(await paymentsOf(wallet.address)).toBe(2);
    // A bad call line is a usage error, and nothing is paid for it.
    const bad = await json(['session', '--budget', '0.04', '--calls', '[{"capabilityId":"translate"}]', '-y'], env);
    expect(bad.code).toBe(2);
    expect(await paymentsOf(wallet.address)).toBe(2);
    // A call the budget cannot pay fails the session; with --json the calls that ran and the refund come beside the error.
    const three = JSON.stringify([translate('a'), translate('b'), translate('c')]);
    const short = await json(['session', '--budget', '0.015', '--calls', three, '-y'], env);
    expect(short.code).not.toBe(0);
    expect(short.data).toMatchObject({
      success: false,
      error: { code: 'BUDGET_EXCEEDED' },
      calls: [{ output: { translation: 'A' } }, { output: { translation: 'B' }, remainingBudget: '0.004000' }],
      session: { paid: usdc(CALL + 15_000n), spent: usdc(2n * CALL), refunded: usdc(15_000n - CALL), calls: 2 },
    });
    expect(await paymentsOf(wallet.address)).toBe(3);
    expect(await invariants()).toEqual([]);
  });

  it("the MCP server with AGORA_MCP_SESSION_BUDGET: a conversation's paid calls share one payment; its end closes the chain", async () => {
    const wallet = newWallet();
    const client = new Client({ name: 'agora-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MCP],
        env: {
          PATH: process.env.PATH ?? '',
          AGORA_URL: api.baseUrl,
          AGORA_PRIVATE_KEY: wallet.privateKey,
          AGORA_MCP_SESSION_BUDGET: '0.05',
        },
        stderr: 'pipe',
      }),
    );
    type Shown = {
      output: unknown;
      chain: { chainId: string; remainingBudget: string };
      spent: { thisCall: string; fromBudget: string };
    };
    const results: Shown[] = [];
    for (const text of ['eins', 'zwei', 'drei']) {
      const r = (await client.callTool({ name: 'execute', arguments: translate(text) })) as unknown as {
        isError?: boolean;
        structuredContent: Shown;
      };
      expect(r.isError).toBeFalsy();
      // The chain's token is a credential over the budget: never shown to the model.
      expect(r.structuredContent.chain).not.toHaveProperty('childToken');
      expect(JSON.stringify(r)).not.toMatch(/childToken/);
      results.push(r.structuredContent);
    }
    expect(results.map((r) => r.output)).toEqual(['EINS', 'ZWEI', 'DREI'].map((t) => ({ translation: t })));
    expect(results.map((r) => r.chain.remainingBudget)).toEqual(['0.050000', '0.039000', '0.028000']);
    // The first call paid the price and the budget; the others paid nothing now and took their cost from the budget.
    expect(results.map((r) => [r.spent.thisCall, r.spent.fromBudget])).toEqual([
      [usdc(CALL + 50_000n), '0.000000'],
      [usdc(0n), usdc(CALL)],
      [usdc(0n), usdc(CALL)],
    ]);
    expect(new Set(results.map((r) => r.chain.chainId)).size).toBe(1);
    expect(await paymentsOf(wallet.address)).toBe(1);
    // The conversation ends: the server closes its chain, and what is left is refunded.
    await client.close();
    const closed = await waitFor(async () => {
      const row = await refundOf(results[0].chain.chainId);
      return row.status === 'completed' ? row : null;
    }, "the conversation's chain to close");
    expect(closed.refunded).toBe(String(50_000n - 2n * CALL));
    expect(await invariants()).toEqual([]);
  });
});
