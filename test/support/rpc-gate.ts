import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** How the gate treats the requests it gets: passed on, held without an answer, or cut off at once. */
export type GateMode = 'open' | 'silent' | 'refuse';

/**
 * A loopback proxy in front of a chain node's JSON-RPC (anvil), for the faults a real node shows:
 * `silent` holds every request unanswered (a paused or hung node), `refuse` drops the connection (a
 * node gone), `open` passes requests on. `rewrite` changes what the node answers (another node's words
 * for the same error). Counts the JSON-RPC methods it was asked (batches included).
 */
export class RpcGate {
  mode: GateMode = 'open';
  rewrite: ((body: string) => string) | null = null;
  readonly methods: string[] = [];
  url = '';
  private server?: Server;
  private readonly held = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly target: string) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests held by `silent` are cut off (the client sees its connection drop) and the gate passes requests again. */
  open(): void {
    this.mode = 'open';
    for (const res of this.held) res.destroy();
    this.held.clear();
  }

  async stop(): Promise<void> {
    this.open();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    try {
      const parsed = JSON.parse(body) as { method?: string } | { method?: string }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) this.methods.push(call.method ?? '?');
    } catch {
      this.methods.push('?');
    }
    if (this.mode === 'refuse') return void req.socket.destroy();
    if (this.mode === 'silent') return void this.held.add(res);
    try {
      const answer = await fetch(this.target, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      const text = await answer.text();
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(this.rewrite ? this.rewrite(text) : text);
    } catch {
      res.destroy();
    }
  }
}
