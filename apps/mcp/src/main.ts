#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AgoraClient } from '@agora/sdk';
import { serveHttp } from './http';
import { PayPerCallTools } from './pay-per-call';
import { loadSettings, Settings } from './settings';
import { createMcpServer } from './server';
import { AgoraTools } from './tools';

/**
 * The tools of this process: one client, so one wallet and one session cap for the whole process,
 * whatever the number of MCP sessions (HTTP clients cannot open sessions to get fresh caps).
 */
export async function createTools(settings: Settings) {
  if (settings.payPerCall) {
    // No wallet: every paid tool forwards the client's own payment (pay-per-call.ts).
    const tools = new PayPerCallTools(new AgoraClient({ baseUrl: settings.apiUrl }));
    const paid = [tools.generic(), ...(await tools.pinned(settings.pins))];
    const free = tools.free();
    return () => createMcpServer(free, paid);
  }
  const client = new AgoraClient({
    baseUrl: settings.apiUrl,
    wallet: settings.wallet!,
    spendCap: settings.caps,
    allowedAssets: settings.allowedAssets,
  });
  const tools = new AgoraTools(client, settings.sessionBudget);
  const pinned = await tools.pinned(settings.pins);
  return () =>
    createMcpServer([...tools.static(), ...pinned], [], (conversation) => void tools.endConversation(conversation));
}

async function main(): Promise<void> {
  const settings = await loadSettings(process.argv.slice(2));
  const newServer = await createTools(settings);
  if (settings.http) {
    const { url } = await serveHttp(settings, async () => newServer());
    const mode = settings.payPerCall ? ', pay-per-call' : '';
    process.stderr.write(`agora MCP server (Streamable HTTP${mode}) on ${url}\n`);
    return;
  }
  // stdio: stdout carries the protocol, so nothing else may be written there.
  const transport = new StdioServerTransport();
  await newServer().connect(transport);
  // The client closing stdin ends the conversation (a session's chain is then closed and refunded).
  process.stdin.once('end', () => void transport.close());
}

main().catch((err: unknown) => {
  process.stderr.write(`agora-mcp: ${(err as Error).message}\n`);
  process.exit(1);
});
