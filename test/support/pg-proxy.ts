import { AddressInfo, connect, createServer, Socket } from 'node:net';

/**
 * A TCP proxy in front of Postgres for one process's pool, so a test can take the database away from
 * that process alone (the shared server, the worker and the test's own reads go on): `cut` drops every
 * connection through it and refuses new ones (a backend gone, as when Postgres stops), `restore` lets
 * them through again.
 */
export interface PgProxy {
  /** `directUrl` (a database on the proxied server) through the proxy. */
  url(directUrl: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startPgProxy(directUrl: string): Promise<PgProxy> {
  const target = new URL(directUrl);
  let cut = false;
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
  };
  const server = createServer((client) => {
    track(client);
    if (cut) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url(direct) {
      const u = new URL(direct);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore() {
      cut = false;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
