/*
 * Contract test harness: an agent as the contract describes one (resolutions §4): a loopback HTTP server that
 * receives `POST endpoints.execution` with `{requestId, capabilityId, input, chain?}` and answers 2xx
 * `{output, usage?, cost?}`. Imports only node built-ins.
 */
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface AgentRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when not JSON). */
  body: any;
  raw: string;
}

export interface AgentAnswer {
  status?: number;
  /** JSON-encoded unless a string. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Answer after this many milliseconds (a slow agent). */
  delayMs?: number;
}

export type AgentHandler = (req: AgentRequest) => AgentAnswer | Promise<AgentAnswer>;

/** The default agent: echoes its input (`{output: {echo: input}}`). */
export const echo: AgentHandler = (req) => ({ status: 200, body: { output: { echo: req.body?.input } } });

export interface AgentServer {
  /** The execution URL to register (http://127.0.0.1:<port>/execute). */
  url: string;
  /** Base URL (health: `${base}/health`). */
  base: string;
  /** Every request received, oldest first (health checks included). */
  requests: AgentRequest[];
  /** The POSTs received (executions). */
  readonly calls: AgentRequest[];
  handler: AgentHandler;
  close(): Promise<void>;
}

export async function startAgentServer(handler: AgentHandler = echo): Promise<AgentServer> {
  const requests: AgentRequest[] = [];
  const state = { handler };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const entry: AgentRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw };
      requests.push(entry);
      const answer = async (): Promise<AgentAnswer> =>
        req.method === 'POST' ? state.handler(entry) : { status: 200, body: { status: 'ok' } };
      answer()
        .then(async (a) => {
          if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
          const text = typeof a.body === 'string' ? a.body : JSON.stringify(a.body ?? {});
          res.writeHead(a.status ?? 200, { 'Content-Type': 'application/json', ...(a.headers ?? {}) });
          res.end(text);
        })
        .catch((err: unknown) => {
          res.writeHead(500, { 'Content-Type': 'application/json' });
          res.end(JSON.stringify({ error: String(err) }));
        });
    });
  });
  // Keep-alive sockets would hold close() open.
  server.keepAliveTimeout = 1;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/execute`,
    base,
    requests,
    get calls() {
      return requests.filter((r) => r.method === 'POST');
    },
    get handler() {
      return state.handler;
    },
    set handler(h: AgentHandler) {
      state.handler = h;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
