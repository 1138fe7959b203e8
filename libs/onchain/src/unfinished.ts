/** A payout or chain row not final yet, as the operator's list of pending money shows it. */
export interface UnfinishedRow {
  id: string;
  /** Micro-USDC (null: the row carries no amount of its own, as a chain transaction). */
  amount: bigint | null;
  status: string;
  createdAt: Date;
  /** The last error recorded on it, if any. */
  error: string | null;
}

/** The oldest unfinished rows of one kind, and how many there are. */
export interface Unfinished {
  rows: UnfinishedRow[];
  total: number;
}
