import { Command } from 'commander';
import { AgoraError, createApi, unwrap, WalletAuthSigner } from '@agora/sdk';
import { intOption } from '../args';
import { Context, contextOf } from '../context';
import { cliEnvironment } from '../environment';
import { forwardHeaders, secretProblem } from '../forward-signature';
import { ListenCursors } from '../listen-cursor';
import { CliError, EXIT } from '../output';

interface ListenFlags {
  forwardTo: string;
  after?: string;
  secret?: string;
  interval: number;
}

interface AgentEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
  createdAt: string;
  cursor: string;
}

const PAGE = 50;
const FORWARD_TIMEOUT_MS = 10_000;
const MAX_BACKOFF_MS = 30_000;

/** Resolves after `ms`, or as soon as `signal` aborts. */
const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** POSTs one event as its webhook would be sent: the same body and the same signature headers. */
async function forward(url: string, event: AgentEvent, secret: string | null, signal: AbortSignal): Promise<number> {
  const body = JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt, data: event.data });
  const eventTimestampS = Math.floor(new Date(event.createdAt).getTime() / 1000);
  const headers = forwardHeaders({
    subscriptionId: 'agora-listen',
    eventId: event.id,
    eventTimestampS,
    attemptTimestampS: Math.floor(Date.now() / 1000),
    secret,
    body,
  });
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.any([signal, AbortSignal.timeout(FORWARD_TIMEOUT_MS)]),
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
}

class Listener {
  private readonly stop = new AbortController();
  private forwarded = 0;

  constructor(
    private readonly ctx: Context,
    private readonly agentId: string,
    private readonly o: ListenFlags,
    private readonly cursors: ListenCursors,
  ) {}

  async run(): Promise<number> {
    const wallet = await this.ctx.keystore.load();
    const auth = new WalletAuthSigner(wallet);
    const api = createApi(this.ctx.api);
    const onSignal = () => this.stop.abort();
    process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
    let cursor = this.o.after ?? this.cursors.get();
    let reached = false;
    this.ctx.out.note(
      `Forwarding the events of ${this.agentId} to ${this.o.forwardTo} ${cursor ? `after ${cursor}` : 'from the first'} (Ctrl-C stops)`,
    );
    try {
      while (!this.stop.signal.aborted) {
        const header = await auth.agentHeaders(this.agentId, 'GET /api/v1/events');
        const query = { ...(cursor ? { after: cursor } : {}), limit: PAGE };
        const page = await (
          unwrap(api.GET('/api/v1/events', { params: { query }, headers: header })) as Promise<{ events: AgentEvent[] }>
        ).catch(async (err: unknown) => {
          // The API restarting is no reason to stop listening (one never reached is a wrong --api: exit 3).
          if (!reached || !(err instanceof AgoraError && err.code === 'CONNECTION_FAILED')) throw err;
          this.ctx.out.note(`${err.message}; retrying in ${this.o.interval} ms`);
          return null;
        });
        if (page === null) {
          await pause(this.o.interval, this.stop.signal);
          continue;
        }
        reached = true;
        for (const event of page.events) {
          if (!(await this.deliver(event))) break;
          cursor = event.cursor;
          this.cursors.set(cursor);
        }
        if (page.events.length < PAGE) await pause(this.o.interval, this.stop.signal);
      }
    } finally {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    }
    this.ctx.out.note(`Stopped: ${this.forwarded} event(s) forwarded${cursor ? `; resumes after ${cursor}` : ''}`);
    return EXIT.ok;
  }

  /** Forwards one event until the local server takes it (2xx) or the listener stops (false). */
  private async deliver(event: AgentEvent): Promise<boolean> {
    for (let wait = 500; !this.stop.signal.aborted; wait = Math.min(MAX_BACKOFF_MS, wait * 2)) {
      let outcome: string;
      try {
        const status = await forward(this.o.forwardTo, event, this.o.secret ?? null, this.stop.signal);
        if (status >= 200 && status < 300) {
          this.forwarded++;
          this.line(event, String(status));
          return true;
        }
        outcome = `${status}, retrying in ${wait} ms`;
      } catch (err) {
        if (this.stop.signal.aborted) return false;
        outcome = `${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}, retrying in ${wait} ms`;
      }
      this.line(event, outcome);
      await pause(wait, this.stop.signal);
    }
    return false;
  }

  private line(event: AgentEvent, outcome: string): void {
    if (this.ctx.out.json) process.stdout.write(`${JSON.stringify({ ...event, forwarded: outcome })}\n`);
    else process.stdout.write(`${event.createdAt}  ${event.type.padEnd(20)}  ${event.id}  -> ${outcome}\n`);
  }
}

export function listenCommand(program: Command): void {
  program
    .command('listen <agentId>')
    .description(
      "forward an agent's events to a local server, signed as its webhooks are (signed reads by its wallet); resumes where it stopped",
    )
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:8080/webhooks')
    .option(
      '--after <cursor>',
      'start after this cursor (default: where the last listen stopped, else the first event)',
    )
    .option(
      '--secret <secret>',
      'sign the forwarded events with this secret (X-Signature, webhook-signature); AGORA_LISTEN_SECRET keeps it out of ps and history',
    )
    .option('--interval <ms>', 'how often to poll when idle (200-60000)', intOption('--interval', 200, 60_000), 2_000)
    .action(async (agentId: string, o: ListenFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      if (!/^https?:\/\/[^\s/]+/.test(o.forwardTo))
        throw new CliError('--forward-to must be an http(s) URL, e.g. http://localhost:8080/webhooks', EXIT.usage);
      if (o.after !== undefined && !/^\d{1,18}\.evt_[A-Za-z0-9_-]{1,36}$/.test(o.after))
        throw new CliError('--after must be a cursor printed by listen or GET /events', EXIT.usage);
      // From the environment, the secret is not visible in the process list or the shell history.
      o.secret ??= cliEnvironment().listenSecret;
      const problem = o.secret === undefined ? null : secretProblem(o.secret);
      if (problem) throw new CliError(`--secret: ${problem} (as a webhook secret)`, EXIT.usage);
      const cursors = new ListenCursors(ctx.keystore.path, `${ctx.api} ${agentId.toLowerCase()}`);
      process.exitCode = await new Listener(ctx, agentId, o, cursors).run();
    });
}
