import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  at: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** An HTTP endpoint on loopback that records JSON posts (callbacks, webhooks) and answers `status`. */
export class JsonReceiver {
  readonly received: Received[] = [];
  status = 200;
  url = '';
  private server?: Server;

  async start(path = '/hook'): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        this.received.push({ at: Date.now(), headers: req.headers, body: raw ? JSON.parse(raw) : undefined });
        res.writeHead(this.status);
        res.end();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
