import canonicalize from 'canonicalize';
import { compactVerify, decodeProtectedHeader, importJWK } from 'jose';

export interface ReceiptCheck {
  valid: boolean;
  /** Why not, when not valid. */
  reason?: string;
  /** The signed fields, when the signature holds. */
  payload?: Record<string, unknown>;
  /** Whether the output shown hashes to the receipt's contentHash (when both are there, and a version 3 receipt's salt). */
  outputMatches?: boolean;
  /** Whether the request id shown is the receipt's (version 4: its requestCommitment, opened with the salt). */
  requestMatches?: boolean;
}

const hex = (buf: ArrayBuffer) => [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of the JCS canonical JSON of `value` (a version 2 receipt's content hashes), as 0x hex. */
export async function contentHash(value: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(canonicalize(value) ?? 'null');
  return `0x${hex(await crypto.subtle.digest('SHA-256', bytes))}`;
}

/**
 * HMAC-SHA256 of the JCS canonical JSON of `value` keyed with the receipt's salt (64 hex): a version 3 or 4
 * receipt's hashes, and version 4's requestCommitment (of the request id, a JSON string).
 */
export async function saltedContentHash(value: unknown, saltHex: string): Promise<string> {
  const salt = new Uint8Array((saltHex.match(/../g) ?? []).map((b) => parseInt(b, 16)));
  const key = await crypto.subtle.importKey('raw', salt, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const bytes = new TextEncoder().encode(canonicalize(value) ?? 'null');
  return `0x${hex(await crypto.subtle.sign('HMAC', key, bytes))}`;
}

/**
 * Checks a JWS receipt in the browser: its key from the deployment's did:web document
 * (/.well-known/did.json, the method whose id is the JWS's kid), the signature with jose, its type,
 * and (given the output) that the output hashes to its contentHash (version 3 on: keyed with the salt given
 * beside the receipt to its payer), and (given the request id and salt) that it is the one the receipt
 * commits to (version 4 states no request id in plain). No agora code is trusted for it.
 */
export async function checkReceipt(
  jws: string,
  output?: unknown,
  salt?: string,
  requestId?: string,
): Promise<ReceiptCheck> {
  let header: { kid?: string; alg?: string; typ?: string };
  try {
    header = decodeProtectedHeader(jws.trim());
  } catch {
    return { valid: false, reason: 'not a compact JWS' };
  }
  if (header.typ !== 'x402-receipt+jws')
    return { valid: false, reason: `type ${header.typ ?? 'missing'}, not a receipt` };
  const res = await fetch('/.well-known/did.json');
  if (!res.ok) return { valid: false, reason: `the deployment's keys could not be read (HTTP ${res.status})` };
  const did = (await res.json()) as {
    verificationMethod?: { id: string; publicKeyJwk?: JsonWebKey }[];
  };
  const method = did.verificationMethod?.find((m) => m.id === header.kid && m.publicKeyJwk);
  if (!method) return { valid: false, reason: 'its key is not one this deployment publishes' };
  try {
    // The algorithm is the deployment's (EdDSA), never the one the JWS names.
    const key = await importJWK(method.publicKeyJwk as Parameters<typeof importJWK>[0], 'EdDSA');
    const { payload } = await compactVerify(jws.trim(), key, { algorithms: ['EdDSA'] });
    const fields = JSON.parse(new TextDecoder().decode(payload)) as Record<string, unknown>;
    const salted = typeof fields.version === 'number' && fields.version >= 3;
    const outputMatches =
      output === undefined || (salted && !salt)
        ? undefined
        : (salted ? await saltedContentHash(output, salt!) : await contentHash(output)) === fields.contentHash;
    const requestMatches =
      requestId === undefined
        ? undefined
        : typeof fields.requestCommitment === 'string'
          ? salt
            ? (await saltedContentHash(requestId, salt)) === fields.requestCommitment
            : undefined
          : fields.requestId === requestId;
    return { valid: true, payload: fields, outputMatches, requestMatches };
  } catch {
    return { valid: false, reason: 'the signature does not match the signed content' };
  }
}
