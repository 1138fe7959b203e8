/*
 * Contract test harness: raw HTTP with the global fetch, and paying a 402 the way an x402 v1 client does.
 * Imports only node built-ins, ethers and files inside test/contract.
 */
import { Wallet } from 'ethers';
import { Accept, paymentHeader, PaymentOptions } from './wallets';
import { Marketplace } from './server';

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or the text when the body is not JSON (undefined when empty). */
  body: T;
  /** The body as sent. */
  text: string;
}

export interface RequestOptions {
  /** JSON-encoded and sent with Content-Type application/json. */
  body?: unknown;
  /** Sent as is (takes precedence over body). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

/** One request: `path` is relative to the marketplace (e.g. `/api/v1/agents`), or an absolute URL. */
export async function api<T = any>(
  m: Marketplace | string,
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<Reply<T>> {
  const base = typeof m === 'string' ? m : m.baseUrl;
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  let body: string | Buffer | undefined = opts.raw;
  if (body === undefined && opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/json';
  }
  const url = /^https?:/.test(path) ? path : `${base}${path}`;
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text === '' ? undefined : text;
  try {
    if (text !== '') parsed = JSON.parse(text);
  } catch {
    /* not JSON: the text */
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export interface PaidReply<T = any> extends Reply<T> {
  /** The 402 answered to the first, unpaid request. */
  required: Reply;
  /** The accepts[0] entry paid. */
  accept: Accept;
  /** The X-PAYMENT value sent (reading an output later needs it). */
  payment: string;
}

/** Fails with the reply in the message when `status` is not the one expected. */
export function expectStatus(r: Reply, status: number, what = ''): void {
  if (r.status !== status)
    throw new Error(`${what} expected HTTP ${status}, got ${r.status}: ${r.text.slice(0, 2000)}`);
}

/**
 * A paid call as an x402 v1 client makes it: sends the request, expects 402, signs accepts[0] and sends
 * the same request again with X-PAYMENT. Returns the second reply.
 */
export async function paid<T = any>(
  m: Marketplace,
  method: string,
  path: string,
  body: unknown,
  wallet: Wallet,
  opts: { headers?: Record<string, string>; payment?: PaymentOptions } = {},
): Promise<PaidReply<T>> {
  const required = await api(m, method, path, { body, headers: opts.headers });
  expectStatus(required, 402, `${method} ${path} without payment:`);
  const accept = required.body?.accepts?.[0] as Accept | undefined;
  if (!accept) throw new Error(`402 without accepts[]: ${required.text.slice(0, 2000)}`);
  const payment = await paymentHeader(wallet, accept, opts.payment);
  const reply = await api<T>(m, method, path, { body, headers: { ...(opts.headers ?? {}), 'X-PAYMENT': payment } });
  return { ...reply, required, accept, payment };
}

/** The 402's accepts[0] for a request, without paying (to build a payment by hand). */
export async function requirement(m: Marketplace, method: string, path: string, body: unknown): Promise<Accept> {
  const r = await api(m, method, path, { body });
  expectStatus(r, 402, `${method} ${path} without payment:`);
  return r.body.accepts[0] as Accept;
}

/** Polls `probe` until it returns a truthy value; throws after `timeoutMs` with the last value seen. */
export async function poll<T>(
  probe: () => Promise<T>,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await probe();
    if (ok(last)) return last;
    if (Date.now() > deadline) {
      const shown = JSON.stringify((last as any)?.body ?? last);
      throw new Error(`timed out waiting for ${what}; last: ${shown?.slice(0, 2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
