import { randomBytes } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ADMIN } from './disputes';

/** The default EXECUTION_OUTPUT_MAX_BYTES (256 KiB). */
export const CAP = 262_144;
/** An answer just under the 4 MiB the agent caller read before the fix: its output was stored whole, and copied into the callback row. */
export const FOUR_MIB_BLOB = 4 * 1024 * 1024 - 64;
/** An output just under the cap (its JSON is `{"blob":"..."}`, 11 bytes more). */
export const ALLOWED_BLOB = 250_000;
/** Room per execution for everything that is not output: the input, the payment, ledger, outbox and index rows, page rounding. */
export const SLACK = 48 * 1024;
export const BEARER = { authorization: `Bearer ${ADMIN['X-Admin-Key']}` };

/** Incompressible text (base64url of random bytes), so TOAST compression cannot hide what is stored. */
export const blob = (n: number) =>
  randomBytes(Math.ceil((n * 3) / 4) + 3)
    .toString('base64url')
    .slice(0, n);

/**
 * An agent whose answer is `{output: {blob}}` with `input.size` random characters. With
 * `input.tail`, it sends the first 512 KiB, then waits (up to 3 s) for the platform to hang up
 * before it sends the rest: `stoppedEarly` says whether the platform stopped reading.
 */
export class BlobAgent {
  url = '';
  stoppedEarly: boolean[] = [];
  outputs = new Map<string, Record<string, unknown>>();
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const call = JSON.parse(raw) as { requestId: string; input: { size: number; tail?: boolean } };
        const output = { blob: blob(call.input.size) };
        this.outputs.set(call.requestId, output);
        const text = JSON.stringify({ output, usage: { tokens: 1 } });
        res.writeHead(200, { 'content-type': 'application/json' });
        if (!call.input.tail) return void res.end(text);
        const head = 512 * 1024;
        res.write(text.slice(0, head));
        let closed = false;
        res.once('close', () => (closed = true));
        const deadline = Date.now() + 3_000;
        const wait = () => {
          if (closed || Date.now() > deadline) {
            this.stoppedEarly.push(closed);
            if (!closed) res.end(text.slice(head));
            return;
          }
          setTimeout(wait, 20);
        };
        wait();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/execute`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
