/**
 * What a node's refusal of `eth_sendRawTransaction` says about the transaction, in every form it
 * comes: the node's own words (geth, anvil, Besu, Nethermind, Erigon differ), ethers' codes
 * (NONCE_EXPIRED, REPLACEMENT_UNDERPRICED, or UNKNOWN_ERROR with the node's error inside) and
 * viem's typed errors (NonceTooLowError, whose cause holds the node's message).
 *
 * - `known`: this very transaction is in the node's pool (or mined): sent. Never a reason to sign
 *   the call again with another nonce: it may land. viem reports "already known" and "transaction
 *   already imported" as NonceTooLowError too, so the node's words are looked at first.
 * - `nonce-conflict`: another transaction holds its nonce, mined ("nonce too low") or still in the
 *   pool ("replacement transaction underpriced", "replacement fee too low"). This one was refused.
 * - `fee`: its fee is refused for another reason (below the base fee, a full pool): sent again later.
 * - `other`: anything else (the node unreachable, a malformed answer).
 */
export type SendRefusal = 'known' | 'nonce-conflict' | 'fee' | 'other';

const KNOWN = /already[ _-]?known|already imported|\bknown transaction|transaction already exists/i;
const NONCE_USED = /nonce[ _-]?too[ _-]?low|NONCE_EXPIRED|nonce has already been used|old[ _-]?nonce/i;
const REPLACEMENT =
  /replacement transaction underpriced|replacement fee too low|REPLACEMENT_UNDERPRICED|replacement[ _-]?not[ _-]?allowed|underpriced replacement/i;
const TYPED_NONCE = /NonceTooLowError|NonceExpiredError/;
const FEE = /underpriced|base fee|fee cap|max fee per gas|FeeCapTooLow/i;

export function classifySendError(err: unknown): SendRefusal {
  const { text, names } = describe(err);
  if (KNOWN.test(text)) return 'known';
  if (NONCE_USED.test(text) || REPLACEMENT.test(text) || TYPED_NONCE.test(names)) return 'nonce-conflict';
  if (FEE.test(text)) return 'fee';
  return 'other';
}

/** Everything an error says (message, code, the node's error, details, its causes), and its class names. */
function describe(err: unknown): { text: string; names: string } {
  const text: string[] = [];
  const names: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e !== null && e !== undefined; depth++) {
    if (typeof e !== 'object') {
      text.push(String(e));
      break;
    }
    const o = e as Record<string, unknown>;
    for (const key of ['code', 'message', 'shortMessage', 'details', 'reason'])
      if (typeof o[key] === 'string' || typeof o[key] === 'number') text.push(String(o[key]));
    for (const inner of [o.error, (o.info as { error?: unknown } | undefined)?.error])
      if (inner !== undefined) text.push(safeJson(inner));
    if (typeof o.name === 'string') names.push(o.name);
    if (e instanceof Error && e.constructor?.name) names.push(e.constructor.name);
    e = o.cause;
  }
  return { text: text.join(' '), names: names.join(' ') };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
