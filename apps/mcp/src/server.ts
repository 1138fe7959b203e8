import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import Ajv, { ValidateFunction } from 'ajv';
import { describeError, ToolDefinition } from './tools';

/**
 * An MCP server exposing `tools`. Arguments of the fixed tools are checked against their schemas
 * here; a pinned capability's input is checked by agora against the capability's own schema.
 */
export function createMcpServer(tools: ToolDefinition[], pinned: Set<string>): Server {
  const server = new Server({ name: 'agora', version: '0.1.0' }, { capabilities: { tools: {} } });
  const ajv = new Ajv({ allErrors: true, strict: false });
  const validators = new Map<string, ValidateFunction>(tools.filter((t) => !pinned.has(t.name)).map((t) => [t.name, ajv.compile(t.inputSchema)]));
  const byName = new Map(tools.map((t) => [t.name, t]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: 'text', text: `No tool named ${request.params.name}` }] };
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const validate = validators.get(tool.name);
    if (validate && !validate(args)) {
      return { isError: true, content: [{ type: 'text', text: `VALIDATION_ERROR: ${ajv.errorsText(validate.errors)}` }] };
    }
    try {
      const result = await tool.run(args);
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }], structuredContent: result as Record<string, unknown> };
    } catch (err) {
      return { isError: true, content: [{ type: 'text', text: describeError(err) }] };
    }
  });
  return server;
}
