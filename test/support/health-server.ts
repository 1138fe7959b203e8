import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A loopback server answering health probes: `GET|HEAD /<name>/health` answers `status[name]`
 * (200 by default) after `delayMs`; it counts calls per name and the most requests in flight at once.
 */
export class HealthServer {
  readonly status = new Map<string, number>();
  readonly calls = new Map<string, number>();
  delayMs = 0;
  inFlight = 0;
  maxInFlight = 0;
  url = '';
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const name = (req.url ?? '/').split('/')[1] ?? '';
      this.calls.set(name, (this.calls.get(name) ?? 0) + 1);
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const send = () => {
        this.inFlight--;
        res.writeHead(this.status.get(name) ?? 200, { 'content-type': 'application/json' });
        res.end(req.method === 'HEAD' ? undefined : '{"ok":true}');
      };
      req.resume();
      if (this.delayMs > 0) setTimeout(send, this.delayMs);
      else send();
    });
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  healthUrl(name: string): string {
    return `${this.url}/${name}/health`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()));
  }
}
