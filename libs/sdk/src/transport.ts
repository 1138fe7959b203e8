import createClient, { Client } from 'openapi-fetch';
import { AgoraError, ConnectionError, errorFromEnvelope } from './errors';
import type { paths } from './generated/openapi';

export type Api = Client<paths>;
export type { paths };

/** The `data` of a success envelope `{success: true, data}`. */
export type EnvelopeData<T> = T extends { data: infer D } ? D : T;

export function createApi(baseUrl: string, fetchImpl?: typeof fetch): Api {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    ...(fetchImpl ? { fetch: fetchImpl as (r: Request) => Promise<Response> } : {}),
  });
}

/**
 * Awaits an openapi-fetch call and answers the envelope's `data`, or throws the typed error for
 * an error envelope (`ConnectionError` when the API could not be reached at all).
 */
export async function unwrap<R extends { data?: unknown; error?: unknown; response: Response }>(
  call: Promise<R>,
): Promise<EnvelopeData<NonNullable<R['data']>>> {
  let result: R;
  try {
    result = await call;
  } catch (err) {
    throw toConnectionError(err);
  }
  return envelopeData(result.response, result.data ?? result.error) as EnvelopeData<NonNullable<R['data']>>;
}

/** The `data` of a parsed envelope, or the typed error it carries. */
export function envelopeData(response: Response, body: unknown): unknown {
  const envelope = body as
    | {
        success?: boolean;
        data?: unknown;
        error?: { code?: unknown; message?: unknown; details?: unknown; requestId?: unknown };
      }
    | undefined;
  if (response.ok && envelope && envelope.success !== false) return envelope.data;
  const error = errorFromEnvelope(response.status, envelope?.error);
  const requestId = envelope?.error?.requestId;
  error.requestId = typeof requestId === 'string' ? requestId : response.headers.get('x-request-id');
  const retryAfter = response.headers.get('retry-after');
  if (retryAfter !== null && error.details.retryAfter === undefined)
    (error.details as Record<string, unknown>).retryAfter = Number(retryAfter);
  throw error;
}

export function toConnectionError(err: unknown): AgoraError {
  if (err instanceof AgoraError) return err;
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const reason = cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
  return new ConnectionError('CONNECTION_FAILED', `The agora API could not be reached (${reason})`, 0, { reason });
}
