import { randomUUID } from 'node:crypto';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import type { PaidToolDefinition } from './pay-per-call';
import { describeError, ToolDefinition } from './tools';

const failure = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });
/** `limit: Too small: expected number to be >=1; arguments: Unrecognized key: "bogus"` */
const describeIssues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join('; ');

/**
 * An MCP server exposing `tools` through McpServer.registerTool: each listed with its input schema,
 * its output schema and its annotations. Arguments of the fixed tools are checked here against
 * their zod schemas (a refusal reads `VALIDATION_ERROR: ...`); a pinned capability's input is
 * checked by agora against the capability's own schema. A result is its structuredContent (which
 * McpServer checks against the output schema) and a short text.
 */
export function createMcpServer(
  tools: ToolDefinition[],
  paid: PaidToolDefinition[] = [],
  onClose?: (conversation: string) => void,
): McpServer {
  const server = new McpServer({ name: 'agora', version: '0.1.0' });
  // One conversation per server instance (stdio: the process; HTTP: one MCP session).
  const conversation = randomUUID();
  if (onClose) server.server.onclose = () => onClose(conversation);
  for (const t of tools) {
    const config = {
      title: t.title,
      description: t.description,
      inputSchema: t.listed,
      outputSchema: t.output,
      annotations: t.annotations,
    };
    server.registerTool(t.name, config, async (args): Promise<CallToolResult> => {
      const parsed = t.input ? t.input.safeParse(args) : { success: true as const, data: args };
      if (!parsed.success) return failure(`VALIDATION_ERROR: ${describeIssues(parsed.error)}`);
      try {
        const result = await t.run(parsed.data, conversation);
        return { structuredContent: result, content: [{ type: 'text', text: t.summarize(result) }] };
      } catch (err) {
        return failure(describeError(err));
      }
    });
  }
  // Paid per call (pay-per-call mode): no output schema (a result is an output, or a PaymentRequired), and the
  // request's _meta, where an x402 MCP client puts its payment.
  for (const t of paid) {
    const config = { title: t.title, description: t.description, inputSchema: t.listed, annotations: t.annotations };
    server.registerTool(t.name, config, async (args, extra): Promise<CallToolResult> => {
      const parsed = t.input ? t.input.safeParse(args) : { success: true as const, data: args };
      if (!parsed.success) return failure(`VALIDATION_ERROR: ${describeIssues(parsed.error)}`);
      try {
        return await t.call(parsed.data as Record<string, unknown>, extra._meta as Record<string, unknown> | undefined);
      } catch (err) {
        return failure(describeError(err));
      }
    });
  }
  return server;
}
