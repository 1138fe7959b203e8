import { createSocket, Socket as UdpSocket } from 'node:dgram';
import { promises as fs } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import { loadConfig } from '@app/config';
import { dnsResolver, OutboundError, OutboundHttpClient, OutboundUrlPolicy } from '@app/outbound';

/**
 * Issue 32, the health probes attacked: the one SSRF guard on the probes' own pool and resolver
 * (c-ares), redirects not followed, and time and bytes bounded whatever a health URL does.
 */
describe('outbound health probes (integration)', () => {
  let http: Server;
  let httpPort: number;
  let accepted = 0;
  let handler: (url: string, res: import('node:http').ServerResponse) => void;

  beforeAll(async () => {
    http = createServer((req, res) => handler(req.url ?? '', res));
    http.on('connection', () => (accepted += 1));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', () => r()));
    httpPort = (http.address() as AddressInfo).port;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise<void>((r) => http.close(() => r()));
  });

  const answers: Record<string, string[]> = {
    'rebind.test': ['127.0.0.1'],
    'meta.test': ['169.254.169.254'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'internal.test': ['10.1.2.3'],
  };
  const resolver = async (host: string) => {
    if (answers[host]) return answers[host];
    throw new Error('ENOTFOUND');
  };
  const client = (allowPrivate: boolean) => {
    const config = loadConfig({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: String(allowPrivate) });
    const neverUsed = async () => {
      throw new Error('the probes must not use the system resolver');
    };
    return new OutboundHttpClient(config, new OutboundUrlPolicy(config, resolver), neverUsed, resolver);
  };
  const outcome = (p: Promise<number>) =>
    p.then(
      (s) => `status ${s}`,
      (e: unknown) => (e instanceof OutboundError ? e.kind : `other: ${e}`),
    );

  it('refuses private, loopback and metadata targets (names resolved by the probe resolver) and NUL bytes', async () => {
    const c = client(false);
    try {
      accepted = 0;
      const p = httpPort;
      const urls = [
        `http://127.0.0.1:${p}/health`,
        `http://169.254.169.254/latest/meta-data/`,
        `http://[::ffff:127.0.0.1]:${p}/`,
        `http://localhost:${p}/`,
        `http://rebind.test:${p}/health`,
        `http://meta.test/latest/meta-data/`,
        `http://mapped.test:${p}/`,
        `http://internal.test/`,
        `http://127.0.0.1\u0000.evil.test:${p}/`,
        `http://evil.test\u0000:${p}/`,
        `http://127.0.0.1:${p}\u0000/`,
      ];
      const outcomes = await Promise.all(urls.map((u) => outcome(c.probe(u, 'GET', 2_000))));
      expect(outcomes).toEqual(urls.map(() => 'blocked'));
      expect(accepted).toBe(0);
    } finally {
      await c.onModuleDestroy();
    }
  });

  it('does not follow a redirect to the metadata address or to loopback: the 3xx is the answer', async () => {
    const target = createServer((_req, res) => res.end('should not be reached'));
    let targetHits = 0;
    target.on('connection', () => (targetHits += 1));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    const c = client(true);
    try {
      for (const location of [
        'http://169.254.169.254/latest/meta-data/',
        `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
      ]) {
        handler = (_u, res) => res.writeHead(302, { location }).end();
        expect(await c.probe(`http://127.0.0.1:${httpPort}/health`, 'GET', 2_000)).toBe(302);
        expect(await c.probe(`http://127.0.0.1:${httpPort}/run`, 'HEAD', 2_000)).toBe(302);
      }
      expect(targetHits).toBe(0);
    } finally {
      await c.onModuleDestroy();
      await new Promise<void>((r) => target.close(() => r()));
    }
  });

  /** A raw TCP server: `onSocket` does what it likes with each connection. */
  const rawServer = async (onSocket: (s: Socket) => void): Promise<{ server: TcpServer; url: string }> => {
    const server = createTcpServer(onSocket);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health` };
  };
  const closeRaw = (server: TcpServer, sockets: Socket[]) => {
    for (const s of sockets) s.destroy();
    return new Promise<void>((r) => server.close(() => r()));
  };

  it('a health URL that never answers, or drips its headers byte by byte, is cut at the timeout', async () => {
    const sockets: Socket[] = [];
    const silent = await rawServer((s) => sockets.push(s.on('error', () => undefined)));
    const drip = await rawServer((s) => {
      sockets.push(s.on('error', () => undefined));
      const head = 'HTTP/1.1 200 OK\r\nx-pad: ' + 'a'.repeat(200) + '\r\n\r\n';
      let i = 0;
      const t = setInterval(() => (i < head.length && !s.destroyed ? s.write(head[i++]) : clearInterval(t)), 20);
      s.on('close', () => clearInterval(t));
    });
    const c = client(true);
    try {
      for (const url of [silent.url, drip.url]) {
        const started = Date.now();
        expect(await outcome(c.probe(url, 'GET', 400))).toBe('timeout');
        expect(Date.now() - started).toBeLessThan(1_500);
      }
    } finally {
      await c.onModuleDestroy();
      await closeRaw(silent.server, sockets);
      await closeRaw(drip.server, []);
    }
  });

  it('a huge body is not read: the probe answers with the status and the connection is dropped', async () => {
    let written = 0;
    let closed!: () => void;
    const dropped = new Promise<void>((r) => (closed = r));
    const chunk = Buffer.alloc(1 << 20, 120);
    const huge = await rawServer((s) => {
      s.on('error', () => undefined).on('close', () => closed());
      s.write('HTTP/1.1 200 OK\r\ncontent-length: 10000000000\r\n\r\n');
      const pump = () => {
        while (!s.destroyed && written < 8 * 2 ** 30) {
          written += chunk.length;
          if (!s.write(chunk)) return void s.once('drain', pump);
        }
      };
      pump();
    });
    const c = client(true);
    try {
      const started = Date.now();
      expect(await c.probe(huge.url, 'GET', 5_000)).toBe(200);
      await dropped;
      expect(Date.now() - started).toBeLessThan(2_000);
      // What the kernel's buffers took before the drop, not the 10 GB announced.
      expect(written).toBeLessThan(64 << 20);
    } finally {
      await c.onModuleDestroy();
      await closeRaw(huge.server, []);
    }
  });

  describe('the probe resolver (c-ares)', () => {
    let dns: UdpSocket;
    let dnsPort: number;
    let queries = 0;
    /** Answers A queries for *.meta.test with 169.254.169.254; stays silent for *.silent.test. */
    beforeAll(async () => {
      dns = createSocket('udp4');
      dns.on('message', (q, peer) => {
        queries++;
        let i = 12;
        const labels: string[] = [];
        while (q[i] !== 0) {
          labels.push(q.subarray(i + 1, i + 1 + q[i]).toString());
          i += q[i] + 1;
        }
        const question = q.subarray(12, i + 5);
        const qtype = q.readUInt16BE(i + 1);
        if (labels.join('.').endsWith('silent.test')) return;
        const a = qtype === 1;
        const head = Buffer.from([q[0], q[1], 0x81, 0x80, 0, 1, 0, a ? 1 : 0, 0, 0, 0, 0]);
        const answer = a ? Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 169, 254, 169, 254]) : Buffer.alloc(0);
        dns.send(Buffer.concat([head, question, answer]), peer.port, peer.address);
      });
      await new Promise<void>((r) => dns.bind(0, '127.0.0.1', () => r()));
      dnsPort = dns.address().port;
    });
    afterAll(() => new Promise<void>((r) => dns.close(() => r())));

    it('answers what the name server says, and the guard refuses it', async () => {
      const resolve = dnsResolver({ timeoutMs: 1_000, servers: [`127.0.0.1:${dnsPort}`] });
      expect(await resolve('agent.meta.test')).toEqual(['169.254.169.254']);
      const config = loadConfig({ OUTBOUND_ALLOW_HTTP: 'true' });
      const c = new OutboundHttpClient(config, new OutboundUrlPolicy(config, resolver), resolver, resolve);
      try {
        await expect(c.probe('http://agent.meta.test/health', 'GET', 2_000)).rejects.toMatchObject({
          kind: 'blocked',
          message: expect.stringMatching(/^agent\.meta\.test resolves to a .+ address$/),
        });
      } finally {
        await c.onModuleDestroy();
      }
    });

    it('a name server that never answers: cut at the timeout, and the thread pool stays free', async () => {
      const resolve = dnsResolver({ timeoutMs: 600, servers: [`127.0.0.1:${dnsPort}`] });
      queries = 0;
      const started = Date.now();
      // More pending resolutions than libuv's thread pool has threads (4): with dns.lookup the file read would wait.
      const pending = Array.from({ length: 16 }, (_, i) =>
        resolve(`n${i}.silent.test`).then(
          () => 'resolved',
          () => 'failed',
        ),
      );
      const read = Date.now();
      await fs.readFile(__filename);
      expect(Date.now() - read).toBeLessThan(300);
      expect(await Promise.all(pending)).toEqual(Array(16).fill('failed'));
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(queries).toBeGreaterThanOrEqual(16);
    });
  });
});
