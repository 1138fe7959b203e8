import { PayoutTable } from '@app/onchain';

/** A refund's transfer sends its own amount plus the held refunds it carries. */
export const REFUND_PAYOUT: PayoutTable = {
  table: 'refunds',
  toColumn: 'wallet',
  amountColumn: 'coalesce(payout_amount, amount)',
};

/** A failed refund is sent again after 1 min, doubling per attempt, at most an hour apart. */
export const REFUND_RETRY = { baseMs: 60_000, maxMs: 3_600_000 };
