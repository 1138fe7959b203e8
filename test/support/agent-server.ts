import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface AgentCall {
  headers: IncomingHttpHeaders;
  body: string;
  json: { requestId: string; capabilityId: string; input: Record<string, unknown> };
}

/**
 * A test agent on loopback. Its behaviour comes from `input.mode` (or `defaultMode`):
 * ok (translation = upper-cased text), fail (500), slow (answers after 2 s), bad-output
 * (breaks the outputSchema), not-json.
 */
export class TestAgentServer {
  readonly calls: AgentCall[] = [];
  defaultMode = 'ok';
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const json = JSON.parse(body || '{}');
        this.calls.push({ headers: req.headers, body, json });
        const mode = (json.input?.mode as string | undefined) ?? this.defaultMode;
        const send = (status: number, payload: string) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(payload);
        };
        if (mode === 'fail') return send(500, JSON.stringify({ error: 'model crashed' }));
        if (mode === 'slow') return void setTimeout(() => send(200, JSON.stringify({ output: { translation: 'late' } })), 2_000);
        if (mode === 'bad-output') return send(200, JSON.stringify({ output: { translation: 42 } }));
        if (mode === 'not-json') return send(200, 'hello');
        send(200, JSON.stringify({ output: { translation: String(json.input?.text ?? '').toUpperCase() } }));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/execute`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (!this.server) return resolve();
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }
}
