import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { Wallet } from 'ethers';
import { join } from 'node:path';
import { evmSigner } from './x402-client';

/** The MCP server's command (apps/mcp, after `npm run build`). */
export const MCP_BIN = join(__dirname, '..', '..', 'apps', 'mcp', 'bin', 'agora-mcp.js');

export type McpToolResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: any;
  _meta?: Record<string, any>;
};

/** A tool call as an x402 MCP client makes it: the arguments, and its PaymentPayload (or anything) in `_meta["x402/payment"]`. */
export function callPaid(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  payment?: unknown,
): Promise<McpToolResult> {
  const _meta = payment === undefined ? undefined : { 'x402/payment': payment };
  return client.callTool({ name, arguments: args, ...(_meta ? { _meta } : {}) }) as Promise<McpToolResult>;
}

/**
 * What an x402 MCP client does with a PaymentRequired tool result: `@x402/core`'s x402Client with
 * the exact EVM scheme (`@x402/evm`) signs a PaymentPayload for it (the reference MCP client's
 * `createPaymentPayload`).
 */
export function x402Payer(wallet: Wallet): (required: PaymentRequired) => Promise<PaymentPayload> {
  const client = registerExactEvmScheme(new x402Client(), { signer: evmSigner(wallet) });
  return (required) => client.createPaymentPayload(required);
}
