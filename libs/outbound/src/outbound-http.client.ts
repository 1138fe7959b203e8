import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { isIP, Socket } from 'node:net';
import { Agent, buildConnector, Dispatcher, request } from 'undici';
import { AppConfig } from '@app/config';
import { blockedAddressReason, blockedHostnameReason } from './address-policy';
import { dnsResolver } from './dns-resolver';
import { OutboundUrlPolicy, Resolver } from './outbound-url.policy';

export type OutboundFailure = 'blocked' | 'timeout' | 'too_large' | 'redirect' | 'network';

export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface OutboundRequest {
  headers?: Record<string, string>;
  /** Total time for the call, connect to last byte. */
  timeoutMs: number;
  /** Response bodies larger than this abort the call. */
  maxBytes: number;
}

const CONNECT_TIMEOUT_MS = 5_000;
/** A probe's name resolution at most (it is within the probe's own timeout too). */
const PROBE_DNS_TIMEOUT_MS = 2_000;
/** A probe's response body is read up to this (then dropped); beyond it, the connection is closed. */
const PROBE_BODY_MAX_BYTES = 16_384;
const systemResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * The one HTTP client for calls to addresses users gave us (agent endpoints, callbacks,
 * webhooks). Keep-alive pool; the SSRF guard runs in the connector: it resolves the name itself,
 * refuses unless every address is globally routable unicast (IP literals and IPv4-in-IPv6
 * included), connects to the address it checked (so DNS cannot change between check and use),
 * and checks the socket's peer again. Redirects are never followed; time and bytes are capped.
 */
@Injectable()
export class OutboundHttpClient implements OnModuleDestroy {
  private readonly agent: Agent;
  /** Health probes' own pool, resolving on c-ares (probeResolve): see dnsResolver. */
  private readonly probeAgent: Agent;

  constructor(
    config: AppConfig,
    private readonly policy: OutboundUrlPolicy,
    resolve: Resolver = systemResolver,
    probeResolve: Resolver = dnsResolver({ timeoutMs: PROBE_DNS_TIMEOUT_MS }),
  ) {
    this.agent = guardedAgent(config.outboundAllowPrivate, resolve);
    this.probeAgent = guardedAgent(config.outboundAllowPrivate, probeResolve);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all([this.agent.close(), this.probeAgent.close()]);
  }

  /** POSTs JSON (a string is sent as the exact bytes given, for signed bodies). */
  async postJson(url: string, body: unknown, req: OutboundRequest): Promise<OutboundResponse> {
    const reason = this.policy.staticReason(url);
    if (reason) throw new OutboundError('blocked', `URL not allowed: ${reason}`);
    // One timer for the whole call (AbortSignal.timeout cost about 0.1 ms of CPU a call more).
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the call timed out')), req.timeoutMs);
    const signal = controller.signal;
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(url, {
          method: 'POST',
          dispatcher: this.agent,
          headers: { 'content-type': 'application/json', ...(req.headers ?? {}) },
          body: typeof body === 'string' ? body : JSON.stringify(body),
          signal,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
        });
      } catch (err) {
        throw classify(err, signal);
      }
      if (res.statusCode >= 300 && res.statusCode < 400) {
        discard(res.body);
        throw new OutboundError('redirect', `redirect (${res.statusCode}) not followed`);
      }
      try {
        return { status: res.statusCode, headers: res.headers, body: await readCapped(res.body, req.maxBytes) };
      } catch (err) {
        throw classify(err, signal);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * A GET or HEAD whose status is all we read (a health probe): a body up to 16 KiB is read and
   * dropped (the connection is kept), a larger one is not read (the connection is closed), a redirect is its status (never followed), and `timeoutMs` bounds the whole
   * call, name resolution (c-ares) and slow headers included. Same guard as every call.
   */
  async probe(url: string, method: 'GET' | 'HEAD', timeoutMs: number): Promise<number> {
    const reason = this.policy.staticReason(url);
    if (reason) throw new OutboundError('blocked', `URL not allowed: ${reason}`);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new OutboundError('timeout', 'the call timed out')), timeoutMs);
    try {
      const res = await request(url, {
        method,
        dispatcher: this.probeAgent,
        signal: controller.signal,
        headersTimeout: timeoutMs,
      }).catch((err: unknown) => {
        throw classify(err, controller.signal);
      });
      // A small body is read to its end (the connection is reused); a larger one is dropped unread.
      await drainUpTo(res.body, PROBE_BODY_MAX_BYTES);
      return res.statusCode;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * The one SSRF guard, in the connector: it resolves the name with `resolve`, refuses unless every
 * address is allowed, dials the address it checked and checks the socket's peer again.
 */
function guardedAgent(allowPrivate: boolean, resolve: Resolver): Agent {
  const base = buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  const guarded: buildConnector.connector = (opts, callback) => {
    pickAddress(opts.hostname, allowPrivate, resolve).then(
      (address) =>
        base(
          {
            ...opts,
            hostname: address,
            servername: opts.servername ?? (isIP(opts.hostname) ? undefined : opts.hostname),
          },
          (err, socket) => {
            if (err || !socket) return callback(err ?? new Error('connect failed'), null);
            const peer = (socket as Socket).remoteAddress ?? '';
            const reason = allowPrivate ? null : blockedAddressReason(peer);
            if (reason) {
              socket.destroy();
              return callback(new OutboundError('blocked', `connected address is ${reason}`), null);
            }
            callback(null, socket);
          },
        ),
      (err: Error) => callback(err, null),
    );
  };
  return new Agent({
    connect: guarded,
    keepAliveTimeout: 10_000,
    connections: 128,
    maxRedirections: 0,
  } as Agent.Options);
}

/** The body as text, refusing (and destroying) one larger than maxBytes. */
function readCapped(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes)
        return body.destroy(new OutboundError('too_large', `response larger than ${maxBytes} bytes`));
      chunks.push(chunk);
    });
    body.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    body.on('error', reject);
  });
}

/** Reads and drops a body of at most maxBytes; destroys a larger one (or one that fails). Never rejects. */
function drainUpTo(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<void> {
  return new Promise((resolve) => {
    let size = 0;
    body.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        discard(body);
        resolve();
      }
    });
    body.once('end', () => resolve());
    body.once('close', () => resolve());
    body.on('error', () => resolve());
  });
}

/** Drops a response body we will not read; destroying it must not surface as an unhandled error. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function classify(err: unknown, signal: AbortSignal): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as { name?: string; code?: string; message?: string; cause?: unknown };
  if (e.cause instanceof OutboundError) return e.cause;
  if (signal.aborted || e.name === 'TimeoutError' || /TIMEOUT/.test(e.code ?? ''))
    return new OutboundError('timeout', 'the call timed out');
  return new OutboundError('network', e.message ?? 'network error');
}

/** The address to dial: the literal itself, or a resolved one, after checking every answer. */
async function pickAddress(hostname: string, allowPrivate: boolean, resolve: Resolver): Promise<string> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = allowPrivate ? null : blockedAddressReason(host);
    if (reason) throw new OutboundError('blocked', `address is ${reason}`);
    return host;
  }
  if (!allowPrivate && blockedHostnameReason(host)) throw new OutboundError('blocked', 'reserved hostname');
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new OutboundError('network', `cannot resolve ${host}`);
  }
  if (addresses.length === 0) throw new OutboundError('network', `cannot resolve ${host}`);
  if (!allowPrivate) {
    for (const a of addresses) {
      const reason = blockedAddressReason(a);
      if (reason) throw new OutboundError('blocked', `${host} resolves to a ${reason} address`);
    }
  }
  return addresses[0];
}
