import { formatMicros, ValidationException } from '@app/common';
import { ExecutionPageRow } from './execution-pages.repository';

/** One execution in a list: what it cost, how it ended, and where its money went. */
export interface ExecutionListItem {
  requestId: string;
  agentId: string;
  agentName: string | null;
  capabilityId: string;
  /** The paying wallet (or calling agent), lower-case; null when none was recorded. */
  payer: string | null;
  status: string;
  settlementStatus: string | null;
  /** USDC: platform fee + agent fee (what a completed run is charged; a failed one is not). */
  total: string;
  /** USDC: the agent's fee. */
  agentFee: string;
  latencyMs: number | null;
  transactionId: string | null;
  hasReceipt: boolean;
  createdAt: string;
  completedAt: string | null;
}

/** A page and the cursor of the next one (null on the last). */
export interface ExecutionPage {
  executions: ExecutionListItem[];
  next: string | null;
}

/** Keyset paging of ExecutionPagesRepository: `limit + 1` rows in, a page and its opaque cursor out. */
export function toPage(rows: ExecutionPageRow[], limit: number): ExecutionPage {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { executions: page.map(view), next: rows.length > limit && last ? encodeCursor(last) : null };
}

const encodeCursor = (r: ExecutionPageRow) =>
  Buffer.from(JSON.stringify([new Date(r.createdAt).toISOString(), r.requestId])).toString('base64url');

/** The position a cursor of toPage names; a 400 for anything this API did not give. */
export function decodeCursor(cursor: string | undefined): { at: Date; id: string } | null {
  if (cursor === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const t = new Date(at);
    if (typeof id === 'string' && id.length <= 40 && Number.isFinite(t.getTime())) return { at: t, id };
  } catch {
    /* refused below */
  }
  throw new ValidationException([{ field: 'cursor', messages: ['cursor is not one this API gave'] }]);
}

function view(r: ExecutionPageRow): ExecutionListItem {
  return {
    requestId: r.requestId,
    agentId: r.agentId,
    agentName: r.agentName,
    capabilityId: r.capabilityId,
    payer: r.payer?.toLowerCase() ?? null,
    status: r.status,
    settlementStatus: r.settlementStatus,
    total: formatMicros(BigInt(r.agentFee) + BigInt(r.platformFee)),
    agentFee: formatMicros(BigInt(r.agentFee)),
    latencyMs: r.latencyMs,
    transactionId: r.transactionId,
    hasReceipt: r.hasReceipt,
    createdAt: new Date(r.createdAt).toISOString(),
    completedAt: r.completedAt ? new Date(r.completedAt).toISOString() : null,
  };
}
