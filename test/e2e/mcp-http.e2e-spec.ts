import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Wallet } from 'ethers';
import { request } from 'node:http';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { ApiHarness } from '../support/api-harness';
import { ApiWithAgent, startApiWithAgent } from '../support/api-with-agent';
import { startProcess, waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';

const MCP = join(__dirname, '..', '..', 'apps', 'mcp', 'bin', 'agora-mcp.js');
type ToolResult = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };

/**
 * The MCP server (apps/mcp, on the SDK only) driven by the official MCP client over stdio and over
 * Streamable HTTP, against the real api: it lists its tools (a pinned capability's schema is the
 * capability's own) with annotations and output schemas, answers structured results with a short
 * text, discovers, executes within the caps and is refused above them, and never shows the wallet's key.
 */
describe('agora MCP server (e2e)', () => {
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;
  const inputSchema = {
    type: 'object',
    properties: { text: { type: 'string', description: 'what to translate' } },
    required: ['text'],
  };

  let stack: ApiWithAgent;

  beforeAll(async () => {
    stack = await startApiWithAgent(
      { RATE_LIMIT_AGENT_PER_MIN: '1000000' },
      { name: 'MCP Translator', capability: { inputSchema } },
    );
    ({ api, ds, agentId } = stack);
  }, 60_000);
  afterAll(() => stack.stop());

  const env = (wallet: Wallet, extra: Record<string, string> = {}) => ({
    PATH: process.env.PATH ?? '',
    AGORA_URL: api.baseUrl,
    AGORA_PRIVATE_KEY: wallet.privateKey,
    AGORA_MCP_CAPABILITIES: `${agentId}:translate`,
    ...extra,
  });
  const stdioClient = async (wallet: Wallet, extra: Record<string, string> = {}) => {
    const client = new Client({ name: 'agora-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [MCP], env: env(wallet, extra), stderr: 'pipe' }),
    );
    return client;
  };
  const call = (client: Client, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<ToolResult>;
  const paymentsBy = async (w: Wallet) =>
    (await ds.query(`SELECT count(*)::int AS n FROM payments WHERE payer = $1`, [w.address.toLowerCase()]))[0]
      .n as number;

  it('refuses a call above the per-call cap, and one past the session cap, before anything is signed', async () => {
    const wallet = newWallet();
    const client = await stdioClient(wallet, { AGORA_MAX_PER_CALL: '0.005' });
    try {
      const refused = await call(client, 'execute', {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'too dear' },
      });
      expect(refused).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^SPEND_CAP_EXCEEDED: .*0\.011000.*0\.005000/) }],
      });
      expect(await paymentsBy(wallet)).toBe(0);
    } finally {
      await client.close();
    }
    const session = await stdioClient(wallet, { AGORA_MAX_SESSION: '0.015' });
    try {
      expect(
        (await call(session, 'execute', { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'one' } }))
          .isError,
      ).toBeFalsy();
      const second = await call(session, 'execute', {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'two' },
      });
      expect(second).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^SPEND_CAP_EXCEEDED/) }],
      });
      expect((await call(session, 'spending', {})).structuredContent).toEqual({
        spent: '0.011000',
        remaining: '0.004000',
      });
      expect(await paymentsBy(wallet)).toBe(1);
    } finally {
      await session.close();
    }
  }, 60_000);

  it('over Streamable HTTP with a bearer token: refused without it, served with it', async () => {
    const wallet = newWallet();
    const server = startProcess(MCP, env(wallet, { AGORA_MCP_TOKEN: 'test-token-0123456789' }), [
      '--http',
      '--port',
      '0',
    ]);
    try {
      const url = await waitFor(async () => /on (http:\/\/\S+\/mcp)/.exec(server.output())?.[1], 'the MCP HTTP server');
      const denied = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      });
      expect(denied.status).toBe(401);
      // DNS rebinding: the right token but another host name (what a page on evil.example would send) is refused.
      const rebound = await new Promise<number>((resolve, reject) => {
        const u = new URL(url);
        const req = request(
          {
            host: u.hostname,
            port: u.port,
            path: u.pathname,
            method: 'POST',
            headers: {
              host: `evil.example:${u.port}`,
              authorization: 'Bearer test-token-0123456789',
              'content-type': 'application/json',
            },
          },
          (res) => resolve(res.statusCode!),
        );
        req.on('error', reject);
        req.end('{}');
      });
      expect(rebound).toBe(403);
      const client = new Client({ name: 'agora-test', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: 'Bearer test-token-0123456789' } },
        }),
      );
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('execute');
        const ran = await call(client, 'execute', {
          targetAgentId: agentId,
          capabilityId: 'translate',
          input: { text: 'http' },
        });
        expect(ran.structuredContent).toMatchObject({
          output: { translation: 'HTTP' },
          spent: { thisCall: '0.011000' },
        });
        // A second session does not get a fresh cap: the process's wallet has one.
        const second = new Client({ name: 'agora-test-2', version: '1.0.0' });
        await second.connect(
          new StreamableHTTPClientTransport(new URL(url), {
            requestInit: { headers: { authorization: 'Bearer test-token-0123456789' } },
          }),
        );
        try {
          expect((await call(second, 'spending', {})).structuredContent).toEqual({
            spent: '0.011000',
            remaining: '0.989000',
          });
        } finally {
          await second.close();
        }
      } finally {
        await client.close();
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);
});
