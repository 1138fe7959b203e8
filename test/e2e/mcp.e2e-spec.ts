import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';
import { Wallet } from 'ethers';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { ApiHarness } from '../support/api-harness';
import { ApiWithAgent, startApiWithAgent } from '../support/api-with-agent';
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

  it('over stdio: lists its tools, discovers, executes within the cap and says what it spent, reads the output back', async () => {
    const wallet = newWallet();
    const client = await stdioClient(wallet);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'discover',
          'recommend',
          'budget_check',
          'execute',
          'get_execution',
          'get_chain',
          'chain_cost',
          'file_dispute',
          'get_dispute',
          'spending',
        ]),
      );
      const pinned = tools.find((t) => t.name === `translate_${agentId.slice(0, 8)}`)!;
      expect(pinned.inputSchema).toEqual(inputSchema);
      expect(pinned.description).toMatch(/MCP Translator: .*0\.010000 USDC/);

      const found = await call(client, 'discover', { capability: 'translate' });
      expect(found.structuredContent.agents.map((a: { id: string }) => a.id)).toContain(agentId);

      const ran = await call(client, 'execute', {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'mcp' },
      });
      expect(ran.isError).toBeFalsy();
      expect(ran.structuredContent).toMatchObject({
        status: 'completed',
        output: { translation: 'MCP' },
        spent: { thisCall: '0.011000', fromBudget: '0.000000', spent: '0.011000', remaining: '0.989000' },
      });
      const read = await call(client, 'get_execution', { requestId: ran.structuredContent.requestId });
      expect(read.structuredContent.output).toEqual({ translation: 'MCP' });

      const viaPinned = await call(client, pinned.name, { text: 'pinned' });
      expect(viaPinned.structuredContent).toMatchObject({
        output: { translation: 'PINNED' },
        spent: { spent: '0.022000' },
      });
      expect(await paymentsBy(wallet)).toBe(2);

      // A call repeated with its idempotency key (a host retrying a tool call) answers the first run: paid once.
      const keyed = {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'once' },
        idempotencyKey: 'mcp-retry-1',
      };
      const first = await call(client, 'execute', keyed);
      const repeated = await call(client, 'execute', keyed);
      expect(repeated.structuredContent).toMatchObject({
        requestId: first.structuredContent.requestId,
        output: { translation: 'ONCE' },
      });
      expect(await paymentsBy(wallet)).toBe(3);

      const invalid = await call(client, 'execute', { targetAgentId: agentId });
      expect(invalid).toMatchObject({
        isError: true,
        content: [{ text: expect.stringMatching(/^VALIDATION_ERROR: .*capabilityId/) }],
      });
      // Nothing shows the key: not the tool list, not a result, not an error.
      for (const text of [JSON.stringify(tools), JSON.stringify(ran), JSON.stringify(invalid)])
        expect(text).not.toContain(wallet.privateKey.slice(2));
    } finally {
      await client.close();
    }
  }, 60_000);

  it('declares annotations and an output schema per tool; results are structured, valid against it, with a short text', async () => {
    const wallet = newWallet();
    const client = await stdioClient(wallet);
    try {
      const { tools } = await client.listTools();
      const byName = new Map(tools.map((t) => [t.name, t]));
      const pinnedName = `translate_${agentId.slice(0, 8)}`;
      for (const name of [
        'discover',
        'recommend',
        'budget_check',
        'get_execution',
        'get_chain',
        'chain_cost',
        'get_dispute',
        'spending',
      ]) {
        expect([name, byName.get(name)!.annotations]).toEqual([
          name,
          expect.objectContaining({ readOnlyHint: true, idempotentHint: true, openWorldHint: false }),
        ]);
      }
      for (const name of ['execute', pinnedName]) {
        expect([name, byName.get(name)!.annotations]).toEqual([
          name,
          expect.objectContaining({
            readOnlyHint: false,
            destructiveHint: true,
            idempotentHint: false,
            openWorldHint: true,
          }),
        ]);
      }
      // Filing adds a case and moves no money from the wallet; a second filing for the charge is refused.
      expect(byName.get('file_dispute')!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
      for (const t of tools) {
        expect([t.name, t.outputSchema?.type, typeof t.title]).toEqual([t.name, 'object', 'string']);
        expect(t.inputSchema.type).toBe('object');
      }
      expect(byName.get('execute')!.inputSchema).toMatchObject({
        required: ['targetAgentId', 'capabilityId', 'input'],
        additionalProperties: false,
      });
      expect(byName.get(pinnedName)!.outputSchema).toEqual(byName.get('execute')!.outputSchema);

      // The client checks structuredContent against outputSchema; ajv checks it here too.
      const ajv = new Ajv({ strict: false, allErrors: true });
      const checked = async (name: string, args: Record<string, unknown>) => {
        const result = await call(client, name, args);
        expect([name, result.isError ?? false]).toEqual([name, false]);
        const validate = ajv.compile(byName.get(name)!.outputSchema!);
        expect([name, validate(result.structuredContent) ? null : validate.errors]).toEqual([name, null]);
        // One short text block: no pretty-printed envelope.
        expect(result.content).toHaveLength(1);
        expect(result.content[0].text).not.toMatch(/\n\s+"/);
        return result;
      };
      const found = await checked('discover', { capability: 'translate', limit: 100 });
      expect(found.content[0].text).toContain(agentId);
      const ran = await checked('execute', {
        targetAgentId: agentId,
        capabilityId: 'translate',
        input: { text: 'compact' },
      });
      expect(ran.content[0].text).toMatch(
        /^completed req_\S+: paid 0\.011000 USDC; session spent 0\.011000, 0\.989000 left/,
      );
      expect(ran.content[0].text).toContain('{"translation":"COMPACT"}');
      expect(ran.content[0].text.length).toBeLessThan(JSON.stringify(ran.structuredContent).length);
      const read = await checked('get_execution', { requestId: ran.structuredContent.requestId });
      expect(read.content[0].text).toContain('{"translation":"COMPACT"}');
      await checked('budget_check', { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'x' } });
      expect((await checked('spending', {})).content[0].text).toBe(
        'spent 0.011000 USDC; 0.989000 left of the session cap',
      );
      const filed = await checked('file_dispute', {
        transactionId: ran.structuredContent.transactionId,
        reason: 'wrong case',
      });
      const dispute = await checked('get_dispute', { disputeId: filed.structuredContent.disputeId });
      expect(dispute.structuredContent).toMatchObject({
        status: 'pending',
        transactionId: ran.structuredContent.transactionId,
      });
      const again = await call(client, 'file_dispute', {
        transactionId: ran.structuredContent.transactionId,
        reason: 'again',
      });
      expect(again).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^DISPUTE_EXISTS/) }] });
    } finally {
      await client.close();
    }
  }, 60_000);
});
