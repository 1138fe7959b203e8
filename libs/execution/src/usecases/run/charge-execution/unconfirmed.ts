import { CommitOutcomeUnknown } from '@app/database';
import type { Funding } from '@app/payments';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { ExecutionOutcome } from '../../../execution.types';
import { RunCompletion } from '../../../executions.repository';

/** What a sync charge knows of its payment so far: pending until the settlement says more. */
export interface KnownSettlement {
  settlementStatus: NonNullable<ExecutionEntity['settlementStatus']>;
  txHash: string | null;
}

/**
 * The answer of a run whose payment was written but whose end could not be recorded or read back
 * (Postgres failed after the first write, or its COMMIT was lost): what this process knows, marked
 * unconfirmed, so the transport answers 202 with where to read it and never a 503 or a 402 that would
 * have the client pay again. What was written is finished by the sweeper (the execution's lease).
 */
export function unconfirmed(execution: ExecutionEntity, known: KnownSettlement): ExecutionOutcome {
  return {
    execution: { ...execution, settlementStatus: known.settlementStatus } as ExecutionEntity,
    settlement: null,
    unconfirmed: { txHash: known.txHash },
  };
}

export function completionFields(c: RunCompletion) {
  return {
    output: c.output,
    executionTimeMs: c.executionTimeMs,
    completedAt: c.completedAt,
    agentFee: c.agentFee,
    usageTokens: c.usageTokens,
  };
}

/** A transaction lost with its connection at COMMIT: it may have been kept. */
export const lostAtCommit = (err: unknown): boolean => err instanceof CommitOutcomeUnknown;

export const PENDING: KnownSettlement = { settlementStatus: 'settlement_pending', txHash: null };

/** What a settlement's result says of the payment: settled (its hash), or failed, expired or still pending. */
export function settlementKnown(
  failure: Awaited<ReturnType<Funding['settleOutside']>>,
  settledHash: string | null,
): KnownSettlement {
  if (!failure) return { settlementStatus: 'settled', txHash: settledHash };
  if (failure.pending) return { settlementStatus: 'settlement_pending', txHash: failure.txHash ?? null };
  return { settlementStatus: failure.final ? 'settlement_expired' : 'settlement_failed', txHash: null };
}
