import { ValidationException } from '@app/common';
import type { PaymentFundings } from '@app/payments';
import type { ExecutionRef } from '../../../executions.repository';

/** A payment as the status read finds it. */
export type PaymentRecord = Awaited<ReturnType<PaymentFundings['lookup']>>[number];

/** What became of a payment, as anyone may read it (payments.md, "Settlement states"). */
export const PAYMENT_STATUSES = ['settled', 'settlement_pending', 'failed', 'released', 'refunded'] as const;
export type PaymentStatusName = (typeof PAYMENT_STATUSES)[number];

/** A status reference: a 0x hash (a settlement transaction's, or an authorization's nonce), and a payment identifier. */
export interface PaymentRef {
  /** Lower case; null when the reference cannot be one. */
  hash: string | null;
  /** As given; a 0x hash is a valid identifier too, so it is looked up as both. */
  identifier: string;
}

const HASH = /^0x[0-9a-fA-F]{64}$/;
const IDENTIFIER = /^[A-Za-z0-9_-]{16,128}$/;

/** The reference of `GET /payments/status/:ref`, or VALIDATION_ERROR (field `ref`). */
export function parsePaymentRef(ref: string): PaymentRef {
  if (!IDENTIFIER.test(ref))
    throw new ValidationException([
      {
        field: 'ref',
        messages: [
          'ref must be a transaction hash or payment nonce (0x and 64 hex digits), or a payment identifier (16-128 of A-Z, a-z, 0-9, "_" and "-")',
        ],
      },
    ]);
  return { hash: HASH.test(ref) ? ref.toLowerCase() : null, identifier: ref };
}

/**
 * The public status of a payment, from its row and the execution it paid for (null: none, e.g. a
 * registration fee):
 * - `settled`: the money moved and what it paid for is recorded (the execution charged, the agent
 *   created): `payments.status` settled and linked;
 * - `refunded`: settled, then owed back whole to the payer: an execution refunded after a dispute,
 *   or a registration fee that created no agent (linked to its refund). A partial refund (variable
 *   pricing's unused part, a chain's unspent budget) leaves it `settled`;
 * - `settlement_pending`: the outcome is not known yet: `settling` (sent, or being sent), `reserved`
 *   while its run is queued or running, or settled on chain with its charge not yet recorded;
 * - `failed`: the last settlement attempt failed and moved nothing; it is retried (`settlement_failed`);
 * - `released`: it moved nothing and the platform will not move it: given back or expired unused
 *   (`released`), or kept `reserved` by a run that failed or timed out (only its payer's retry of
 *   that run, `POST /execute/:id/retry`, would use it).
 */
export function paymentStatusOf(
  p: Pick<PaymentRecord, 'status' | 'refId'>,
  execution: Pick<ExecutionRef, 'status'> | null,
): PaymentStatusName {
  switch (p.status) {
    case 'settled':
      if (execution?.status === 'refunded' || p.refId?.startsWith('rfd_')) return 'refunded';
      return p.refId === null ? 'settlement_pending' : 'settled';
    case 'settling':
      return 'settlement_pending';
    case 'settlement_failed':
      return 'failed';
    case 'released':
      return 'released';
    case 'reserved':
      return execution?.status === 'failed' || execution?.status === 'timeout' ? 'released' : 'settlement_pending';
  }
}
