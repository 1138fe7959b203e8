/** A failed refund is sent again after 1 min, doubling per attempt, at most an hour apart. */
export const REFUND_RETRY = { baseMs: 60_000, maxMs: 3_600_000 };
