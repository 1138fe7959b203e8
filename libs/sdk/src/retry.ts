import { TimeoutError } from './errors';

/** How network failures are retried. Every attempt sends the same request: the same headers, so the same Idempotency-Key and payment. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  attempts?: number;
  /** The first backoff; each next one doubles, with jitter (default 250 ms). */
  baseDelayMs?: number;
  /** The longest wait before an attempt, a Retry-After included: a 429 or 503 asking for longer is not retried (default 10,000 ms). */
  maxDelayMs?: number;
}

export interface HttpOptions {
  retry?: RetryOptions | false;
  /** Longest wait for one HTTP request's answer (ms), each attempt on its own; a request that times out is not retried. */
  timeout?: number;
}

type Fetch = (request: Request) => Promise<Response>;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * `fetch` with bounded retries and a per-request timeout. Retried: a connection failure and a
 * gateway's 502/504 when the request is safe to repeat (a read, or a request with an
 * Idempotency-Key, which the API answers once however often it comes); a 429 with Retry-After for
 * any request; a 503 for a request safe to repeat, and for any other only when it is the API's own
 * SERVICE_UNAVAILABLE (the API answers one before its payment's first write, a 202 after it; a proxy's 503, which some
 * send when they stop waiting while the request goes on, proves nothing). Retry-After is honoured.
 * An answer of the API's own (an agent that failed: 502/504 in the envelope) is a result, never retried.
 */
export function resilientFetch(inner: Fetch, options: HttpOptions = {}): Fetch {
  const retry = options.retry === false ? { attempts: 1 } : (options.retry ?? {});
  const attempts = Math.max(1, Math.floor(retry.attempts ?? 3));
  const baseDelayMs = retry.baseDelayMs ?? 250;
  const maxDelayMs = retry.maxDelayMs ?? 10_000;
  return async (request: Request): Promise<Response> => {
    const repeatable = SAFE_METHODS.has(request.method) || request.headers.has('idempotency-key');
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= attempts;
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await send(inner, request.clone(), options.timeout);
      } catch (err) {
        if (err instanceof TimeoutError || last || !repeatable || request.signal.aborted) throw err;
        await sleep(jitter(backoff));
        continue;
      }
      if (last) return response;
      const wait = await retryWait(response, repeatable, backoff);
      if (wait === null || wait > maxDelayMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(wait);
    }
  };
}

/** One attempt, aborted after `timeout` ms (with the caller's own signal, if any). */
async function send(inner: Fetch, request: Request, timeout: number | undefined): Promise<Response> {
  if (timeout === undefined) return inner(request);
  const timer = AbortSignal.timeout(timeout);
  try {
    return await inner(new Request(request, { signal: AbortSignal.any([request.signal, timer]) }));
  } catch (err) {
    if (timer.aborted && !request.signal.aborted) {
      throw new TimeoutError('REQUEST_TIMEOUT', `No answer from the agora API within ${timeout} ms`, 0, {
        timeoutMs: timeout,
        url: request.url,
      });
    }
    throw err;
  }
}

/** How long to wait before trying `response` again, or null when it is an answer to keep. */
async function retryWait(response: Response, repeatable: boolean, backoff: number): Promise<number | null> {
  const { status } = response;
  const retryAfter = retryAfterMs(response.headers.get('retry-after'));
  if (status === 429) return retryAfter;
  // The same key's first request is still running (the api says when to look again): the same request, later.
  if (status === 409 && repeatable && retryAfter !== null) return retryAfter;
  if (status === 503 && (repeatable || (await apiErrorCode(response)) === 'SERVICE_UNAVAILABLE'))
    return retryAfter ?? jitter(backoff);
  if ((status === 502 || status === 504) && repeatable && (await apiErrorCode(response)) === null)
    return retryAfter ?? jitter(backoff);
  return null;
}

/** The code of an error envelope from the API itself (null: a proxy's page): its 502/504 is the call's outcome. */
async function apiErrorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { success?: unknown; error?: { code?: unknown } };
    return body?.success === false && typeof body.error?.code === 'string' ? body.error.code : null;
  } catch {
    return null;
  }
}

function retryAfterMs(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** Between half and all of `ms`, so clients that failed together do not retry together. */
function jitter(ms: number): number {
  return ms / 2 + Math.random() * (ms / 2);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
