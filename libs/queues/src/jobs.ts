/**
 * The one list of queues, job names and their payloads. Producers and processors are
 * typed from it, and the worker refuses to boot if a job has no handler or two.
 */
export const QUEUES = {
  maintenance: 'maintenance',
  /** Every job on it moves or gives back money: payouts, escrow, settlements, chain sends and budgets, disputes, registration fees. */
  money: 'money',
  executions: 'executions',
  webhooks: 'webhooks',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface JobPayloads {
  /** Delete spent auth messages whose timestamps can no longer be presented. */
  'auth-messages.prune': { requestedAt: string };
  /** Delete idempotency keys past their expiry (the sweeper enqueues it every tick). */
  'idempotency-keys.prune': { requestedAt: string };
  /** Delete the input and output of uncharged runs past UNCHARGED_PAYLOAD_RETENTION_HOURS and of executions past EXECUTION_PAYLOAD_RETENTION_DAYS, keeping their hashes (every tick). */
  'execution-payloads.prune': { requestedAt: string };
  /** Delete agents' health probe results and hourly counts older than 7 days (every tick while probing is on). */
  'agent-health.prune': { requestedAt: string };
  /** Delete invariant check results older than 7 days (every tick). */
  'invariant-checks.prune': { requestedAt: string };
  /** Count charges past their dispute filing window, undisputed or their dispute ended, in their payers' spend (every tick). */
  'payer-spend.mature': { requestedAt: string };
  /** Send a pending withdrawal (claim, transfer, complete or fail). */
  'withdrawal.process': { withdrawalId: string };
  /** Send a pending refund to the payer (claim, transfer, complete). */
  'refund.process': { refundId: string };
  /** Release an escrow hold whose time has come (sweeper). */
  'escrow.release': { holdId: string };
  /** Release every escrow hold due by now: one delayed job per time bucket, not one per hold. */
  'escrow.release-due': { bucket: number };
  /** Decide a signed chain transaction still undecided past its resend time: from the chain, or broadcast it again. */
  'chain.resend': { txId: string };
  /** End a chain whose root ended and in which nothing runs: its final status, and the refund of what the budget has left. */
  'chain.finish': { chainId: string };
  /** Return the reservation of a chained call whose process died before it ended. */
  'chain.release-node': { executionId: string };
  /** A registration fee that may have moved without its agent: decided from the chain, refunded if it moved. */
  'registration.recover': { paymentId: string };
  /** Resolve a pending dispute whose response window closed unanswered (client_wins); due at its respondBy. */
  'dispute.timeout': { disputeId: string };
  /** Retry a failed settlement. */
  'payment.settle': { paymentId: string };
  /** Run an async execution (claim, call the agent, settle, charge). */
  'execution.run': { executionId: string };
  /** Turn outbox events into one delivery row per matching subscription (the relay's batch after commit; the sweeper's). */
  'event.fanout': { eventIds: string[] };
  /** One delivery attempt (webhook event or execution callback); a failure schedules the next row. */
  'webhook.deliver': { deliveryId: string };
}

export type JobName = keyof JobPayloads;

export type JobOf<N extends JobName = JobName> = { [K in N]: { name: K; data: JobPayloads[K] } }[N];

/** Which queue carries each job. */
export const JOB_QUEUE: { readonly [N in JobName]: QueueName } = {
  'auth-messages.prune': QUEUES.maintenance,
  'idempotency-keys.prune': QUEUES.maintenance,
  'execution-payloads.prune': QUEUES.maintenance,
  'agent-health.prune': QUEUES.maintenance,
  'invariant-checks.prune': QUEUES.maintenance,
  'payer-spend.mature': QUEUES.maintenance,
  'withdrawal.process': QUEUES.money,
  'refund.process': QUEUES.money,
  'escrow.release': QUEUES.money,
  'escrow.release-due': QUEUES.money,
  'payment.settle': QUEUES.money,
  'dispute.timeout': QUEUES.money,
  'registration.recover': QUEUES.money,
  'chain.resend': QUEUES.money,
  'chain.finish': QUEUES.money,
  'chain.release-node': QUEUES.money,
  'execution.run': QUEUES.executions,
  'event.fanout': QUEUES.webhooks,
  'webhook.deliver': QUEUES.webhooks,
};

export const JOB_NAMES = Object.keys(JOB_QUEUE) as JobName[];

/** Default retry policy: exponential backoff; the processor's last attempt marks rows failed. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential' as const, delay: 1_000 },
  removeOnComplete: { age: 3_600, count: 1_000 },
  removeOnFail: { age: 7 * 24 * 3_600 },
};

/**
 * Deterministic job ids: enqueueing the same work twice is a no-op while the first job
 * exists. BullMQ forbids ':' in custom ids, so parts are joined with '-'.
 */
export function jobId(name: JobName, ...parts: (string | number)[]): string {
  return [name.replace(/\./g, '_'), ...parts].join('-').replace(/:/g, '_');
}
