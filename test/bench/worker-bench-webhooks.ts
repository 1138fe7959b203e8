/* Webhook timings of `npm run bench:worker` (test/bench/worker-bench.ts): what
   test/e2e/webhooks-worker.e2e-spec.ts waits on but no longer bounds (issue 54). The worker runs with
   WEBHOOK_RETRY_DELAYS_MS=0,300,600,900,1200; two agents, each its owner's, subscribe to dispute.filed:
   - relay: RELAYED events committed one after the other (an INSERT into outbox_events, as OutboxService
     writes it; its trigger notifies the worker) to a receiver answering 200: from the commit to the
     receiver, and published_at - created_at (the sweeper would take 2 s);
   - retries: RETRIED events at once to a receiver answering 500 to the first four attempts of each: the
     lateness of their retries, from each one's scheduled_at to its claim (attempted_at) and to the receiver.
   p50, p95 and max in ms. */
import { ChildProcess } from 'node:child_process';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { Wallet } from 'ethers';
import { newId } from '@app/common';
import { walletHeaders } from '../support/wallets';

const RELAYED = Number(process.env.WEBHOOK_RELAYED ?? 50);
const RETRIED = Number(process.env.WEBHOOK_RETRIED ?? 10);
export const WEBHOOK_DELAYS = '0,300,600,900,1200';

/** A receiver answering `status` (by the attempt: 1, 2, ...); when each event id came (ms since the epoch, in order). */
async function receiver(
  status: (attempt: number) => number,
): Promise<{ server: Server; url: string; seen: Map<string, number[]> }> {
  const seen = new Map<string, number[]>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const id = (JSON.parse(body) as { id: string }).id;
      seen.set(id, [...(seen.get(id) ?? []), at]);
      res.writeHead(status(seen.get(id)!.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

async function subscribe(apiUrl: string, owner: Wallet, agentId: string, url: string): Promise<void> {
  const res = await fetch(`${apiUrl}/api/v1/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(await walletHeaders(owner, agentId, 'POST /api/v1/webhooks')) },
    body: JSON.stringify({ agentId, url, events: ['dispute.filed'] }),
  });
  if (res.status !== 201) throw new Error(`subscribe answered ${res.status}: ${await res.text()}`);
}

const emit = async (pg: Client, agentId: string): Promise<string> => {
  const id = newId('evt');
  await pg.query(`INSERT INTO outbox_events (id, type, agent_id, data) VALUES ($1, 'dispute.filed', $2, $3)`, [
    id,
    agentId,
    { disputeId: newId('dsp') },
  ]);
  return id;
};

async function until(what: string, done: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const row = (name: string, xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)].toFixed(1);
  return `| ${name} | ${s.length} | ${at(0.5)} | ${at(0.95)} | ${s[s.length - 1].toFixed(1)} |\n`;
};

/** Runs both parts with a worker from `startWorker` (given WEBHOOK_RETRY_DELAYS_MS) on `agents`, owned by `owners`. */
export async function webhookTimings(
  o: { apiUrl: string; pg: Client; owners: Wallet[]; agents: [string, string] },
  startWorker: (extra: Record<string, string>) => ChildProcess,
): Promise<void> {
  // The second fails an event's first four attempts and takes the fifth (a fifth failure would fail the subscription).
  const [ok, failing] = [await receiver(() => 200), await receiver((n) => (n < 5 ? 500 : 200))];
  await subscribe(o.apiUrl, o.owners[0], o.agents[0], ok.url);
  await subscribe(o.apiUrl, o.owners[1], o.agents[1], failing.url);
  const worker = startWorker({ WEBHOOK_RETRY_DELAYS_MS: WEBHOOK_DELAYS });
  try {
    const canary = await emit(o.pg, o.agents[0]); // relayed once the worker is up (or swept, if it came first)
    await until('the worker up', () => ok.seen.has(canary));
    const relay: number[] = [];
    const published: string[] = [];
    for (let i = 0; i < RELAYED; i++) {
      const committed = Date.now();
      const id = await emit(o.pg, o.agents[0]);
      await until('a relayed event', () => ok.seen.has(id));
      relay.push(ok.seen.get(id)![0] - committed);
      published.push(id);
    }
    const { rows: pub } = await o.pg.query(
      `SELECT extract(epoch FROM published_at - created_at) * 1000 AS ms FROM outbox_events WHERE id = ANY($1)`,
      [published],
    );
    const retried: string[] = [];
    for (let i = 0; i < RETRIED; i++) retried.push(await emit(o.pg, o.agents[1]));
    await until('every retry made', async () => {
      const { rows } = await o.pg.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE event_id = ANY($1) AND attempt = 5 AND status = 'succeeded'`,
        [retried],
      );
      return rows[0].n === RETRIED;
    });
    const { rows: attempts } = await o.pg.query(
      `SELECT event_id AS "eventId", attempt, scheduled_at AS "scheduledAt", attempted_at AS "attemptedAt"
         FROM webhook_deliveries WHERE event_id = ANY($1) AND attempt > 1`,
      [retried],
    );
    const claimed = attempts.map((a) => a.attemptedAt.getTime() - a.scheduledAt.getTime());
    const received = attempts.map((a) => failing.seen.get(a.eventId)![a.attempt - 1] - a.scheduledAt.getTime());
    process.stdout.write(
      `\nwebhooks (WEBHOOK_RETRY_DELAYS_MS=${WEBHOOK_DELAYS})\n\n| ms | n | p50 | p95 | max |\n|---|---|---|---|---|\n` +
        row('relay: commit to receiver', relay) +
        row(
          'relay: published_at - created_at',
          pub.map((r) => Number(r.ms)),
        ) +
        row('retry: scheduled to claimed', claimed) +
        row('retry: scheduled to receiver', received),
    );
  } finally {
    await new Promise((resolve) => (worker.once('exit', resolve), worker.kill('SIGTERM')));
    for (const r of [ok, failing]) await new Promise((resolve) => r.server.close(resolve));
  }
}
