import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadConfig } from '@app/config';
import { OutboundError, OutboundHttpClient, OutboundUrlPolicy } from '@app/outbound';

/** G8: the SSRF corpus reaches no listener; redirects are not followed; time and size are capped. */
describe('outbound HTTP client (integration)', () => {
  let server: Server;
  let port: number;
  let accepted = 0;
  let handler: (url: string, res: import('node:http').ServerResponse) => void = (_u, res) => res.end('{"ok":true}');

  beforeAll(async () => {
    server = createServer((req, res) => handler(req.url ?? '', res));
    server.on('connection', () => (accepted += 1));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });

  const answers: Record<string, string[]> = {
    'rebind.test': ['127.0.0.1'],
    'internal.test': ['10.0.0.1'],
    'mixed.test': ['93.184.216.34', '127.0.0.1'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'meta.test': ['169.254.169.254'],
    'cgnat.test': ['100.64.0.7'],
  };
  const resolver = async (host: string) => {
    if (answers[host]) return answers[host];
    throw new Error('ENOTFOUND');
  };
  const guardedClient = () => {
    const config = loadConfig({ OUTBOUND_ALLOW_HTTP: 'true' });
    return new OutboundHttpClient(config, new OutboundUrlPolicy(config, resolver), resolver);
  };
  const openClient = () => {
    const config = loadConfig({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' });
    return new OutboundHttpClient(config, new OutboundUrlPolicy(config, resolver), resolver);
  };
  const call = (client: OutboundHttpClient, url: string, opts: Partial<{ timeoutMs: number; maxBytes: number }> = {}) =>
    client.postJson(
      url,
      { hello: 'world' },
      { timeoutMs: opts.timeoutMs ?? 3_000, maxBytes: opts.maxBytes ?? 1_048_576 },
    );

  const corpus = (p: number) => [
    `http://127.0.0.1:${p}/`,
    `http://127.1:${p}/`,
    `http://0x7f.1:${p}/`,
    `http://0x7f000001:${p}/`,
    `http://2130706433:${p}/`,
    `http://017700000001:${p}/`,
    `http://0177.0.0.1:${p}/`,
    `http://127.000.000.001:${p}/`,
    `http://0.0.0.0:${p}/`,
    `http://0:${p}/`,
    `http://[::1]:${p}/`,
    `http://[::]:${p}/`,
    `http://[::ffff:127.0.0.1]:${p}/`,
    `http://[::ffff:7f00:1]:${p}/`,
    `http://[0:0:0:0:0:ffff:127.0.0.1]:${p}/`,
    `http://[::127.0.0.1]:${p}/`,
    `http://[64:ff9b::7f00:1]:${p}/`,
    `http://[2002:7f00:1::]:${p}/`,
    `http://169.254.169.254:${p}/latest/meta-data/`,
    `http://[::ffff:a9fe:a9fe]:${p}/`,
    `http://[fd00:ec2::254]:${p}/`,
    `http://metadata.google.internal:${p}/computeMetadata/v1/`,
    `http://10.0.0.1:${p}/`,
    `http://172.16.0.1:${p}/`,
    `http://192.168.1.1:${p}/`,
    `http://100.64.0.1:${p}/`,
    `http://localhost:${p}/`,
    `http://LOCALHOST.:${p}/`,
    `http://api.localhost:${p}/`,
    `http://rebind.test:${p}/`,
    `http://internal.test:${p}/`,
    `http://mixed.test:${p}/`,
    `http://mapped.test:${p}/`,
    `http://meta.test:${p}/`,
    `http://cgnat.test:${p}/`,
  ];

  it('refuses every target of the SSRF corpus before any connection reaches the listener', async () => {
    const client = guardedClient();
    try {
      const urls = corpus(port);
      expect(urls.length).toBeGreaterThanOrEqual(30);
      accepted = 0;
      const outcomes = await Promise.all(
        urls.map((u) =>
          call(client, u).then(
            () => 'reached',
            (e: unknown) => (e instanceof OutboundError ? e.kind : `other: ${e}`),
          ),
        ),
      );
      expect(urls.filter((_, i) => outcomes[i] !== 'blocked').map((u, i) => `${u} -> ${outcomes[i]}`)).toEqual([]);
      expect(accepted).toBe(0);
    } finally {
      await client.onModuleDestroy();
    }
  });

  it('reaches the listener when loopback is explicitly allowed (the corpus is the only thing stopping it)', async () => {
    const client = openClient();
    try {
      accepted = 0;
      const res = await call(client, `http://127.0.0.1:${port}/run`);
      expect(res).toMatchObject({ status: 200, body: '{"ok":true}' });
      expect(accepted).toBe(1);
    } finally {
      await client.onModuleDestroy();
    }
  });

  it('does not follow a redirect, even to an allowed address', async () => {
    const target = createServer((_req, res) => res.end('should not be reached'));
    let targetHits = 0;
    target.on('connection', () => (targetHits += 1));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', () => r()));
    const targetPort = (target.address() as AddressInfo).port;
    handler = (_u, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${targetPort}/` });
      res.end();
    };
    const client = openClient();
    try {
      await expect(call(client, `http://127.0.0.1:${port}/redirect`)).rejects.toMatchObject({ kind: 'redirect' });
      expect(targetHits).toBe(0);
    } finally {
      handler = (_u, res) => res.end('{"ok":true}');
      await client.onModuleDestroy();
      await new Promise<void>((r) => target.close(() => r()));
    }
  });

  it('aborts a response over the size cap and a call over its time limit', async () => {
    const client = openClient();
    try {
      handler = (_u, res) => {
        res.write('x'.repeat(600_000));
        res.end('x'.repeat(600_000));
      };
      await expect(call(client, `http://127.0.0.1:${port}/big`, { maxBytes: 1_000_000 })).rejects.toMatchObject({
        kind: 'too_large',
      });
      handler = (_u, res) => setTimeout(() => res.end('late'), 2_000);
      const started = Date.now();
      await expect(call(client, `http://127.0.0.1:${port}/slow`, { timeoutMs: 300 })).rejects.toMatchObject({
        kind: 'timeout',
      });
      expect(Date.now() - started).toBeLessThan(1_500);
      // Headers at once, then a body that drips (each chunk well inside the idle limit): the
      // limit is on the whole call.
      handler = (_u, res) => {
        res.writeHead(200);
        const drip = setInterval(() => res.write('x'), 50);
        setTimeout(() => (clearInterval(drip), res.end()), 2_000);
      };
      const dripStarted = Date.now();
      await expect(call(client, `http://127.0.0.1:${port}/drip`, { timeoutMs: 300 })).rejects.toMatchObject({
        kind: 'timeout',
      });
      expect(Date.now() - dripStarted).toBeLessThan(1_500);
    } finally {
      handler = (_u, res) => res.end('{"ok":true}');
      await client.onModuleDestroy();
    }
  });
});
