import type { AgoraClient } from '@agora/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from './server';
import { AgoraTools } from './tools';

type Text = { content: { text: string }[]; isError?: boolean; structuredContent?: Record<string, unknown> };

/** The MCP server in process (McpServer and the official client over an in-memory pair) with a stub SDK client. */
describe('agora MCP server: listing and argument checks', () => {
  const schema = {
    $schema: 'http://json-schema.org/draft-04/schema#',
    id: 'urn:agora:test',
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  };
  const pricing = { model: 'per-request', basePrice: '0.010000', currency: 'USDC' };
  const executed: unknown[] = [];
  const discovered: unknown[] = [];
  const stub = {
    getAgent: async (id: string) => ({
      id,
      name: 'Stub',
      capabilities: [
        { id: 'one', name: 'One', description: 'first', pricing, inputSchema: schema },
        { id: 'two', name: 'Two', description: 'second', pricing, inputSchema: schema },
      ],
    }),
    execute: async (o: unknown) => {
      executed.push(o);
      const cost = { total: '0.011000', agentFee: '0.010000', platformFee: '0.001000', pricingModel: 'per-request' };
      return {
        requestId: 'req_1',
        status: 'completed',
        transactionId: 'tx_1',
        output: { ok: true },
        executionTime: 5,
        cost,
        settlement: { status: null, txHash: null },
        paid: '0.011000',
        payment: null,
      };
    },
    get spending() {
      return { spent: '0.011000', remaining: '0.989000' };
    },
    discovery: {
      discover: async (q: unknown) => (
        discovered.push(q),
        { agents: [], total: 0, totalExact: true, limit: 20, offset: 0 }
      ),
    },
  } as unknown as AgoraClient;

  let client: Client;
  beforeAll(async () => {
    const tools = new AgoraTools(stub);
    const server = createMcpServer([...tools.static(), ...(await tools.pinned([{ agentId: 'abcdef0123456789' }]))]);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'spec', version: '1.0.0' });
    await Promise.all([server.connect(a), client.connect(b)]);
  });
  afterAll(() => client.close());

  it("lists a pinned capability's schema as it is, one per capability (an id zod already holds is left out)", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'one_abcdef01')!.inputSchema).toEqual(schema);
    const { id: _id, ...withoutId } = schema;
    expect(tools.find((t) => t.name === 'two_abcdef01')!.inputSchema).toEqual(withoutId);
  });

  it("passes a pinned capability's input to agora unchecked (agora checks it against the capability's schema)", async () => {
    const result = (await client.callTool({ name: 'one_abcdef01', arguments: { notText: 1 } })) as Text;
    expect(result.isError).toBeFalsy();
    expect(executed).toEqual([
      { targetAgentId: 'abcdef0123456789', capabilityId: 'one', input: { notText: 1 }, async: false },
    ]);
    expect(result.content[0].text).toBe(
      'completed req_1: paid 0.011000 USDC; session spent 0.011000, 0.989000 left; transaction tx_1. Output: {"ok":true}',
    );
    expect(result.structuredContent).not.toHaveProperty('payment');
  });

  it('refuses bad arguments of a fixed tool with VALIDATION_ERROR naming each field, before calling agora', async () => {
    const result = (await client.callTool({ name: 'discover', arguments: { limit: 0, bogus: 1 } })) as Text;
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(
      /^VALIDATION_ERROR: (?=.*limit: Too small)(?=.*arguments: Unrecognized key: "bogus")/,
    );
    expect(discovered).toEqual([]);
    expect(((await client.callTool({ name: 'discover', arguments: { limit: 5 } })) as Text).content[0].text).toBe(
      '0 of 0 agents',
    );
    expect(discovered).toEqual([{ limit: 5 }]);
    // The health filter passes through; an uptime outside 0..1 is refused before agora is called.
    await client.callTool({ name: 'discover', arguments: { minUptime: 0.9 } });
    expect(discovered).toEqual([{ limit: 5 }, { minUptime: 0.9 }]);
    const bad = (await client.callTool({ name: 'discover', arguments: { minUptime: 2 } })) as Text;
    expect(bad.content[0].text).toMatch(/^VALIDATION_ERROR: .*minUptime: Too big/);
    expect(discovered).toHaveLength(2);
  });
});
