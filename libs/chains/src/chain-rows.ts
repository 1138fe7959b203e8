/* The rows of `chains` and `chain_nodes` as the repository reads them: types, selected columns, mappers. */

export type ChainStatus = 'pending' | 'running' | 'completed' | 'failed' | 'partial';
export type ChainNodeStatus = 'running' | 'completed' | 'refunded';

export interface ChainRow {
  id: string;
  rootExecutionId: string;
  rootAgentId: string;
  rootWallet: string;
  paymentId: string;
  budget: bigint;
  maxDepth: number;
  status: ChainStatus;
  rootEnded: boolean;
  running: number;
  /** What the budget has not reserved for running nodes. */
  available: bigint;
  traceId: string;
  startedAt: Date;
  expiresAt: Date;
  /** The latest expiry of a token handed to the root's caller (null: none): the chain stays open until then. */
  heldUntil: Date | null;
  /** The root's caller gave its tokens up (closed the chain). */
  holdReleased: boolean;
  completedAt: Date | null;
  refundId: string | null;
  refunded: bigint | null;
}

/** A chain as it is first written (pending, until its payment funds it). */
export type NewChain = Pick<
  ChainRow,
  | 'id'
  | 'rootExecutionId'
  | 'rootAgentId'
  | 'rootWallet'
  | 'paymentId'
  | 'budget'
  | 'maxDepth'
  | 'traceId'
  | 'startedAt'
  | 'expiresAt'
>;

export interface ChainNodeRow {
  executionId: string;
  chainId: string;
  parentExecutionId: string | null;
  agentId: string;
  capabilityId: string;
  depth: number;
  spanId: string;
  reserved: bigint;
  cost: bigint | null;
  status: ChainNodeStatus;
  transactionId: string | null;
  executionTimeMs: number | null;
  startedAt: Date;
  completedAt: Date | null;
}

export const CHAIN_COLUMNS = `id, root_execution_id AS "rootExecutionId", root_agent_id AS "rootAgentId", root_wallet AS "rootWallet", payment_id AS "paymentId",
  budget, max_depth AS "maxDepth", status, root_ended AS "rootEnded", running, available, trace_id AS "traceId", started_at AS "startedAt",
  expires_at AS "expiresAt", held_until AS "heldUntil", hold_released AS "holdReleased", completed_at AS "completedAt", refund_id AS "refundId", refunded`;
export const NODE_FIELDS: [string, string][] = [
  ['execution_id', 'executionId'],
  ['chain_id', 'chainId'],
  ['parent_execution_id', 'parentExecutionId'],
  ['agent_id', 'agentId'],
  ['capability_id', 'capabilityId'],
  ['depth', 'depth'],
  ['span_id', 'spanId'],
  ['reserved', 'reserved'],
  ['cost', 'cost'],
  ['status', 'status'],
  ['transaction_id', 'transactionId'],
  ['execution_time_ms', 'executionTimeMs'],
  ['started_at', 'startedAt'],
  ['completed_at', 'completedAt'],
];
export const nodeColumns = (alias = '') =>
  NODE_FIELDS.map(([column, field]) => `${alias}${column} AS "${field}"`).join(', ');
export const NODE_COLUMNS = nodeColumns();

/**
 * Whether a chain takes no more calls: final, or its root ended with nothing running and no token
 * handed to the root's caller still valid at `now` (it is about to be finished).
 */
export function chainEnded(
  c: Pick<ChainRow, 'status' | 'rootEnded' | 'running' | 'heldUntil' | 'holdReleased'>,
  now: Date,
): boolean {
  if (c.status !== 'running' && c.status !== 'pending') return true;
  return c.rootEnded && c.running === 0 && !(c.heldUntil !== null && !c.holdReleased && c.heldUntil > now);
}

/**
 * After a node's end: whether the chain can be finished now; else, when only a token held by the
 * root's caller keeps it open, when it can (`closesAt`); and the hold as the end left it (null when
 * there is none or the caller gave it up): an answer hands that caller a token only up to it.
 */
export type ChainEnd = { finishable: boolean; closesAt: Date | null; heldUntil: Date | null };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function chainOf(r: Record<string, unknown>): ChainRow {
  return {
    ...(r as unknown as ChainRow),
    budget: BigInt(r.budget as string),
    available: BigInt(r.available as string),
    refunded: r.refunded === null ? null : BigInt(r.refunded as string),
  };
}

export function nodeOf(r: Record<string, unknown>): ChainNodeRow {
  return {
    ...(r as unknown as ChainNodeRow),
    reserved: BigInt(r.reserved as string),
    cost: r.cost === null ? null : BigInt(r.cost as string),
  };
}

/**
 * When a running chain can be finished at the time `$now` names: its root ended, nothing runs, and
 * no token handed to the root's caller is still valid (none was, the caller gave them up, they
 * expired, or the chain is past its time limit).
 */
export const FINISHABLE = (now: string) =>
  `(running = 0 AND root_ended AND (held_until IS NULL OR hold_released OR held_until <= ${now} OR expires_at <= ${now}))`;
