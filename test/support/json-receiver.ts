import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  /** The exact bytes received (what signatures cover). */
  raw: string;
  body: any;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Answer only after this long (a receiver that hangs). */
  delayMs?: number;
  /** The answer's body (none by default). */
  body?: string;
}

/**
 * An HTTP endpoint on loopback that records JSON posts (callbacks, webhooks) and answers
 * `status`, or what `reply(n)` says for the n-th request (0-based).
 */
export class JsonReceiver {
  readonly received: Received[] = [];
  status = 200;
  reply: ((n: number) => Reply) | null = null;
  /** Connections accepted, whether or not a request completed on them. */
  connections = 0;
  url = '';
  private server?: Server;

  async start(path = '/hook'): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const n = this.received.length;
        this.received.push({ at: Date.now(), headers: req.headers, raw, body: raw ? JSON.parse(raw) : undefined });
        const r = this.reply ? this.reply(n) : { status: this.status };
        const send = () => {
          res.writeHead(r.status, r.headers ?? {});
          res.end(r.body);
        };
        if (r.delayMs) setTimeout(send, r.delayMs).unref();
        else send();
      });
    });
    this.server.on('connection', () => this.connections++);
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
