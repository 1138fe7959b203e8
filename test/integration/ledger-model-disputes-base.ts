import { DataSource } from 'typeorm';
import { AppException, FixedClock } from '@app/common';
import { FileDispute } from '@app/disputes';
import { newWallet, signAuth } from '../support/wallets';
import { DebtModel } from './ledger-model-debts';

/** The payer of the charges the ledger test disputes: a wallet whose key the test holds (signature proofs). */
export const PAYER = newWallet();
/** Config of the app under test: windows short enough for the model's clock (AdvanceAndRelease) to close them. */
export const DISPUTE_ENV = { DISPUTE_FILING_WINDOW_S: '1500', DISPUTE_RESPONSE_WINDOW_S: '600' };
export const FILING_MS = Number(DISPUTE_ENV.DISPUTE_FILING_WINDOW_S) * 1000;
export const RESPONSE_MS = Number(DISPUTE_ENV.DISPUTE_RESPONSE_WINDOW_S) * 1000;

export type Hold = {
  id: string;
  agentId: string;
  amount: bigint;
  releaseAt: number;
  released: boolean;
  frozen?: boolean;
};
/** A charge paid by PAYER: its hold (null: released at the charge), its fee split, and whether it was disputed. */
export interface ChargeModel {
  txId: string;
  agentId: string;
  fee: bigint;
  hold: Hold | null;
  completedAt: number;
  disputed: boolean;
}
export interface DisputeModel {
  id: string;
  charge: ChargeModel;
  frozen: bigint;
  respondBy: number;
  status: 'pending' | 'responded' | 'resolved';
}

/** The parts of the ledger model the dispute commands move; the spec's verify() compares them with the accounts. */
export interface DisputeAwareModel {
  agents: string[];
  available: Map<string, bigint>;
  escrow: Map<string, bigint>;
  frozen: Map<string, bigint>;
  /** agent:<id>:owed, never positive: what the agent's debts still lack (to PAYER, or to the platform for an advance). */
  owed: Map<string, bigint>;
  revenue: bigint;
  /** PAYER's client:<wallet>:refund_payable. */
  payerRefundPayable: bigint;
  /** PAYER's client:<wallet>:refund_due: what agents owe it and have not refunded yet. */
  payerRefundDue: bigint;
  /** Oldest first: repayments go to them in this order. */
  debts: DebtModel[];
  holds: Hold[];
  charges: ChargeModel[];
  disputes: DisputeModel[];
  done: { kind: 'hold' | 'withdrawal' | 'dispute'; id: string }[];
  /** Signatures made so far: each gets its own timestamp. */
  signatures: number;
}

export interface DisputeReal {
  ds: DataSource;
  clock: FixedClock;
  get<T>(type: new (...args: never[]) => T): T;
}

export type Verify<M, R> = (m: M, r: R) => Promise<void>;
export type Snapshot = (ds: DataSource) => Promise<string>;
export const add = (m: Map<string, bigint>, k: string, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);
export const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** What the run exercised (printed at the end): a property that never reaches a path proves nothing about it. */
export const disputeStats = {
  fromEscrow: 0,
  fromAvailable: 0,
  /** Filed after the agent had withdrawn some or all of the earnings (the actor playing both sides). */
  withdrawnFirst: 0,
  /** Charges PAYER made to agent 0, which it owns. */
  selfPaid: 0,
  owedToPayer: 0,
  advanced: 0,
  responded: 0,
  agent_wins: 0,
  client_wins: 0,
  split: 0,
  overdue: 0,
  replayed: 0,
  refused: {} as Record<string, number>,
};

/** A refused call moves nothing: not a balance, an entry, a row or a spent signature (I10's snapshot). */
export async function refused(
  r: DisputeReal,
  snapshot: Snapshot,
  code: string,
  call: () => Promise<unknown>,
): Promise<void> {
  const before = await snapshot(r.ds);
  const outcome = await call().catch((e: unknown) => e);
  expect({ code: outcome instanceof AppException ? outcome.code : outcome }).toEqual({ code });
  expect(await snapshot(r.ds)).toBe(before);
  disputeStats.refused[code] = (disputeStats.refused[code] ?? 0) + 1;
}

export function file(r: DisputeReal, m: DisputeAwareModel, c: ChargeModel, signer = PAYER) {
  const timestampMs = r.clock.nowMs() - (m.signatures++ % 250) * 1000; // fresh (< 300 s old) and distinct
  return signAuth(signer, c.txId, timestampMs).then((signature) =>
    r.get(FileDispute).execute({
      transactionId: c.txId,
      reason: 'not what was asked',
      evidence: null,
      proof: { payment: null, wallet: PAYER.address, signature },
    }),
  );
}

/** `pick` among the items the first of `prefer` that keeps any keeps, or among all. */
export function choose<T>(items: T[], pick: number, ...prefer: ((x: T) => boolean)[]): T {
  const from = prefer.map((p) => items.filter(p)).find((xs) => xs.length) ?? items;
  return from[pick % from.length];
}
