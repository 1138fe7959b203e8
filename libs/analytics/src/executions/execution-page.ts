import { formatMicros, ValidationException } from '@app/common';
import { ExecutionFilter, ExecutionPageRow, ExecutionPosition, ScannedPage } from './execution-pages.repository';

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

/** At most this many executions are read for one page, whatever its filter. */
export const SCAN_WINDOW = 2_000;

/**
 * A page out of a scan: `limit` matching rows (the scan asked for `limit + 1` when unfiltered); the
 * next cursor is the last row given when more matched, or where the scan stopped when its window
 * filled first (a filtered page may then hold fewer than `limit` rows, and the next goes on).
 */
export function toPage(scan: ScannedPage, limit: number): ExecutionPage {
  const page = scan.rows.slice(0, limit);
  const more = scan.rows.length > limit;
  const at = more ? page.at(-1)!.position : scan.scannedTo;
  return { executions: page.map(view), next: at ? encodeCursor(at) : null };
}

/** The scan's size for a page: just one more row than the page without a filter, else the window. */
export const windowFor = (filter: ExecutionFilter, limit: number) =>
  filter.status || filter.capabilityId ? Math.max(SCAN_WINDOW, limit + 1) : limit + 1;

const encodeCursor = (p: ExecutionPosition) => Buffer.from(JSON.stringify([p.at, p.id])).toString('base64url');
const POSITION_AT = /^(2\d{3}|[3-9]\d{3})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const REQUEST_ID = /^req_[A-Za-z0-9_-]{1,36}$/;

/** The position a cursor of toPage names; a 400 for anything this API did not give. */
export function decodeCursor(cursor: string | undefined): ExecutionPosition | null {
  if (cursor === undefined) return null;
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [unknown, unknown];
    if (typeof at === 'string' && typeof id === 'string' && POSITION_AT.test(at) && REQUEST_ID.test(id))
      return { at, id };
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
