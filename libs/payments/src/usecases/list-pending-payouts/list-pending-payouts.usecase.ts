import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { OpenChainTxs, Unfinished } from '@app/onchain';
import { PaymentsRepository } from '../../payments.repository';
import { RefundsRepository } from '../../repositories/refunds.repository';
import { WithdrawalsRepository } from '../../repositories/withdrawals.repository';

export const PENDING_KINDS = ['withdrawal', 'refund', 'settlement', 'chain_tx'] as const;
export type PendingKind = (typeof PENDING_KINDS)[number];

/** Money not final yet: one row of a kind, with how long it has been waiting. */
export interface PendingMoney {
  kind: PendingKind;
  id: string;
  amount: bigint | null;
  status: string;
  createdAt: Date;
  ageMs: number;
  error: string | null;
}

export interface PendingMoneyList {
  /** The oldest `limit` of each kind asked, oldest first. */
  items: PendingMoney[];
  /** How many of each kind asked are not final (all of them, not only those listed). */
  totals: Partial<Record<PendingKind, number>>;
}

/**
 * `GET /admin/pending`: payouts and settlements not final yet, oldest first: withdrawals not sent
 * (pending, processing), refunds due and not sent (pending, processing, failed; a held dust refund
 * is not due), payments whose settlement is not final (settling, settlement_failed) and chain transactions the chain has not
 * decided (signed). At most `limit` of each kind, each read through a status index.
 */
@Injectable()
export class ListPendingPayouts {
  constructor(
    private readonly withdrawals: WithdrawalsRepository,
    private readonly refunds: RefundsRepository,
    private readonly payments: PaymentsRepository,
    private readonly chainTxs: OpenChainTxs,
    private readonly clock: Clock,
  ) {}

  async execute(kinds: readonly PendingKind[], limit: number): Promise<PendingMoneyList> {
    const read: Record<PendingKind, () => Promise<Unfinished>> = {
      withdrawal: () => this.withdrawals.oldestUnfinished(limit),
      refund: () => this.refunds.oldestUnfinished(limit),
      settlement: () => this.payments.oldestUnsettled(limit),
      chain_tx: () => this.chainTxs.oldest(limit),
    };
    const asked = PENDING_KINDS.filter((k) => kinds.includes(k));
    const found = await Promise.all(asked.map(async (kind) => ({ kind, ...(await read[kind]()) })));
    const now = this.clock.nowMs();
    const items = found
      .flatMap(({ kind, rows }) =>
        rows.map((r) => ({ kind, ...r, ageMs: Math.max(0, now - new Date(r.createdAt).getTime()) })),
      )
      .sort((a, b) => b.ageMs - a.ageMs || a.id.localeCompare(b.id));
    return { items, totals: Object.fromEntries(found.map((f) => [f.kind, f.total])) };
  }
}
