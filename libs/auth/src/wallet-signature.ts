import { AppException, isHighS, isUuid, recoverMessageSigner } from '@app/common';

export const AUTH_PREFIX = 'agora-auth';

export interface ParsedAuthHeader {
  /** The id the signature was made for: an agent id, or a transaction id for client proofs. */
  subjectId: string;
  timestampMs: number;
  /** The request the message was signed for, `"<METHOD> <path>"`, or null for the unbound message. */
  action: string | null;
  /** Lowercase SHA-256 hex of the request body the bound message was signed for, or null when it names none. */
  bodySha256: string | null;
  signature: string;
  /** The exact text that was signed (EIP-191 personal message). */
  message: string;
}

/** `:<METHOD> <path>` of a bound message, then optionally `:<sha256 hex of the body>`. */
const BOUND = String.raw`(?::([A-Z]{3,7} \/[^\s:]{0,500})(?::([0-9a-fA-F]{64}))?)?`;
const HEADER = new RegExp(String.raw`^agora-auth:([^:]{1,100}):(\d{1,16})${BOUND}:sig:(0x[0-9a-fA-F]{130})$`);

function unauthorized(message: string): AppException {
  return new AppException('UNAUTHORIZED', message);
}

/**
 * Strict parse of `agora-auth:<id>:<timestamp-ms>[:<METHOD> <path>[:<body sha256>]]:sig:<65-byte hex signature>`:
 * the signed message is everything before `:sig:`. Anything else is UNAUTHORIZED: the caller has
 * not presented a credential we can read.
 */
export function parseAuthHeader(
  header: string | undefined,
  headerName: string,
  subjectKind: 'uuid' | 'any' = 'uuid',
): ParsedAuthHeader {
  if (header === undefined || header === '') throw unauthorized(`${headerName} header is required`);
  const m = HEADER.exec(header);
  if (!m)
    throw unauthorized(
      `${headerName} must be ${AUTH_PREFIX}:<id>:<timestamp_ms>[:<METHOD> <path>[:<body sha256>]]:sig:<0x signature>`,
    );
  const [, subjectId, ts, action, bodyHash, signature] = m;
  if (subjectKind === 'uuid' && !isUuid(subjectId)) throw unauthorized(`${headerName} must name an agent UUID`);
  const timestampMs = Number(ts);
  if (!Number.isSafeInteger(timestampMs))
    throw unauthorized(`${headerName} timestamp is not a valid Unix millisecond time`);
  if (isHighS(signature)) throw unauthorized(`${headerName} signature is not canonical (high s)`);
  const v = parseInt(signature.slice(130, 132), 16);
  if (![0, 1, 27, 28].includes(v)) throw unauthorized(`${headerName} signature has an invalid recovery byte`);
  const bound = action ? `:${action}${bodyHash ? `:${bodyHash}` : ''}` : '';
  const message = `${AUTH_PREFIX}:${subjectId}:${ts}${bound}`;
  const bodySha256 = bodyHash ? bodyHash.toLowerCase() : null;
  return { subjectId, timestampMs, action: action ?? null, bodySha256, signature, message };
}

/** Rejects timestamps more than windowS seconds from now, either side. */
export function assertFresh(parsed: ParsedAuthHeader, nowMs: number, windowS: number, headerName: string): void {
  if (Math.abs(nowMs - parsed.timestampMs) > windowS * 1000) {
    throw unauthorized(`${headerName} timestamp is outside the ${windowS}-second window`);
  }
}

/** The address that signed the message, or null if the signature does not recover. */
export function recoverSigner(parsed: ParsedAuthHeader): string | null {
  try {
    return recoverMessageSigner(parsed.message, parsed.signature);
  } catch {
    return null;
  }
}
