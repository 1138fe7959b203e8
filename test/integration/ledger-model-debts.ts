// The agents' dispute debts in the ledger model test (G1): what repays them, and what PAYER gets back.

/** An agent's debt from a dispute (agent_debts): to PAYER (`payer`), or to the platform for an admin's advance. */
export interface DebtModel {
  agentId: string;
  creditor: 'payer' | 'platform';
  amount: bigint;
  repaid: bigint;
  refunded: bigint;
}

/** Repayments below this wait for more before they become a refund (REFUND_DUST_MICRO's default). */
const DUST = 10_000n;

/** The parts of the model a repayment moves. */
export interface DebtAwareModel {
  available: Map<string, bigint>;
  owed: Map<string, bigint>;
  debts: DebtModel[];
  payerRefundDue: bigint;
  payerRefundPayable: bigint;
}

/** What the run exercised of repayments (printed at the end). */
export const debtStats = { repaid: 0, repaymentRefunds: 0 };

const add = (m: Map<string, bigint>, k: string, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/**
 * Earnings reaching the agent (an escrow release, a dispute's release): they repay what it owes first, oldest debt first, the rest is
 * available; a repayment owed to PAYER becomes its refund once it reaches the dust floor or completes the debt.
 */
export function credit(m: DebtAwareModel, agentId: string, amount: bigint): void {
  const repaid = min(amount, -(m.owed.get(agentId) ?? 0n));
  if (repaid > 0n) debtStats.repaid++;
  add(m.owed, agentId, repaid);
  add(m.available, agentId, amount - repaid);
  let left = repaid;
  for (const d of m.debts.filter((x) => x.agentId === agentId && x.repaid < x.amount)) {
    if (left === 0n) break;
    const part = min(left, d.amount - d.repaid);
    left -= part;
    d.repaid += part;
    const due = d.repaid - d.refunded;
    if (d.creditor === 'payer' && (due >= DUST || d.repaid === d.amount)) {
      m.payerRefundDue -= due;
      m.payerRefundPayable += due;
      d.refunded = d.repaid;
      debtStats.repaymentRefunds++;
    }
  }
  expect(left).toBe(0n);
}
