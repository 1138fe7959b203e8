import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { Settings } from './settings';

const MAX_BODY = 1_048_576;
const MAX_SESSIONS = 32;
const IDLE_MS = 30 * 60_000;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) req.destroy(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch (err) {
        reject(err);
      }
    });
    req.on('error', reject);
  });
}

function authorized(req: IncomingMessage, token: string | null): boolean {
  if (token === null) return true;
  const given = Buffer.from(req.headers.authorization ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * On loopback, a request must name a loopback host and come from no other origin: a web page cannot
 * reach the server through DNS rebinding or a cross-site request.
 */
function fromLoopback(req: IncomingMessage): boolean {
  try {
    const host = new URL(`http://${req.headers.host ?? ''}`).hostname;
    const origin = req.headers.origin;
    return LOOPBACK.has(host) && (origin === undefined || LOOPBACK.has(new URL(origin).hostname));
  } catch {
    return false;
  }
}

/**
 * Streamable HTTP at /mcp, one MCP session per `mcp-session-id` (at most 32, each closed after 30
 * idle minutes); all sessions share the process's wallet and caps. It spends money: it listens on
 * loopback unless AGORA_MCP_HOST says otherwise (then AGORA_MCP_TOKEN is required, but in
 * pay-per-call mode, which holds no wallet), and with a token every request must carry it as a
 * bearer token.
 */
export async function serveHttp(
  settings: Settings,
  newSession: () => Promise<McpServer>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const loopback = LOOPBACK.has(settings.http!.host) || settings.http!.host === '::1';
  const reaper = setInterval(() => {
    for (const [id, at] of lastSeen) if (Date.now() - at > IDLE_MS) void sessions.get(id)?.close();
  }, 60_000);
  reaper.unref();
  const fail = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };
  const http = createServer((req, res) => {
    void (async () => {
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp')
        return fail(res, 404, 'Not found: the endpoint is /mcp');
      if (!authorized(req, settings.http!.token)) return fail(res, 401, 'Unauthorized');
      if (loopback && !fromLoopback(req)) return fail(res, 403, 'Forbidden: not a loopback host or origin');
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readJson(req).catch(() => null) : undefined;
      if (body === null) return fail(res, 400, 'Body is not JSON');
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport) {
        if (req.method !== 'POST' || !isInitializeRequest(body))
          return fail(res, 400, 'No valid session: initialize first');
        if (sessions.size >= MAX_SESSIONS) return fail(res, 503, 'Too many open sessions; close one first');
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, transport!),
        });
        transport.onclose = () => {
          if (transport!.sessionId) {
            sessions.delete(transport!.sessionId);
            lastSeen.delete(transport!.sessionId);
          }
        };
        await (await newSession()).connect(transport);
      }
      if (transport.sessionId) lastSeen.set(transport.sessionId, Date.now());
      await transport.handleRequest(req, res, body);
      if (transport.sessionId) lastSeen.set(transport.sessionId, Date.now());
    })().catch((err: unknown) => {
      if (!res.headersSent) fail(res, 500, (err as Error).message);
    });
  });
  await new Promise<void>((resolve) => http.listen(settings.http!.port, settings.http!.host, resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://${settings.http!.host}:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => (clearInterval(reaper), http.closeAllConnections(), http.close(() => resolve()))),
  };
}
