import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { formatMicros } from '@app/common';
import {
  DisputeOutcome,
  DisputeView,
  GetDispute,
  ResolveDispute,
  ResolveOverdueDispute,
  RespondToDispute,
} from '@app/disputes';
import { splitAgentFee } from '@app/payments';
import { newWallet } from '../support/wallets';
import { credit, DebtModel } from './ledger-model-debts';
import { FILING_MS, RESPONSE_MS, add, min, disputeStats, refused, file, choose } from './ledger-model-disputes-base';
import type {
  ChargeModel,
  DisputeModel,
  DisputeAwareModel,
  DisputeReal,
  Verify,
  Snapshot,
} from './ledger-model-disputes-base';

export { credit };
export type { DebtModel };
export { PAYER, DISPUTE_ENV, disputeStats } from './ledger-model-disputes-base';
export type { ChargeModel, DisputeModel, DisputeAwareModel, DisputeReal } from './ledger-model-disputes-base';

/**
 * The payer disputes one of its charges, which one by `target`: `new` one not disputed yet, `short` one already released to an
 * agent whose available balance is now short of its earnings (it withdrew them: the actor playing both sides, who pays, withdraws
 * and disputes), `again` one disputed already, `imposter` any, with a signature by another wallet claiming to be the payer.
 */
export class FileDisputeCmd<M extends DisputeAwareModel, R extends DisputeReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    readonly target: 'new' | 'short' | 'again' | 'imposter',
    private readonly verify: Verify<M, R>,
    private readonly snapshot: Snapshot,
  ) {}
  check = (m: Readonly<M>) => m.charges.length > 0;
  async run(m: M, r: R) {
    const fresh = (c: ChargeModel) => !c.disputed;
    const short = (c: ChargeModel) =>
      fresh(c) && (!c.hold || c.hold.released) && (m.available.get(c.agentId) ?? 0n) < splitAgentFee(c.fee).earnings;
    const prefer = { new: [fresh], short: [short, fresh], again: [(c: ChargeModel) => c.disputed], imposter: [] }[
      this.target
    ];
    const c = choose(m.charges, this.pick, ...prefer);
    const now = r.clock.nowMs();
    if (this.target === 'imposter') await refused(r, this.snapshot, 'FORBIDDEN', () => file(r, m, c, newWallet()));
    else if (c.disputed) await refused(r, this.snapshot, 'DISPUTE_EXISTS', () => file(r, m, c));
    else if (now > c.completedAt + FILING_MS)
      await refused(r, this.snapshot, 'DISPUTE_WINDOW_CLOSED', () => file(r, m, c));
    else {
      const d = await file(r, m, c);
      const { earnings } = splitAgentFee(c.fee);
      const from = c.hold && !c.hold.released ? 'escrow' : 'available';
      let frozen = earnings;
      if (c.hold && from === 'escrow') {
        c.hold.frozen = true; // never released now
        add(m.escrow, c.agentId, -earnings);
        disputeStats.fromEscrow++;
      } else {
        // What available still holds of the earnings; the platform advances nothing (the rest was withdrawn or spent).
        frozen = min(m.available.get(c.agentId) ?? 0n, earnings);
        add(m.available, c.agentId, -frozen);
        disputeStats.fromAvailable++;
        if (frozen < earnings) disputeStats.withdrawnFirst++;
      }
      add(m.frozen, c.agentId, frozen);
      expect({
        status: d.status,
        frozen: d.frozenAmount,
        advanced: d.advancedAmount,
        from: d.frozenFrom,
        respondBy: d.respondBy.getTime(),
      }).toEqual({
        status: 'pending',
        frozen,
        advanced: 0n,
        from,
        respondBy: now + RESPONSE_MS,
      });
      c.disputed = true;
      m.disputes.push({ id: d.id, charge: c, frozen, respondBy: now + RESPONSE_MS, status: 'pending' });
    }
    await this.verify(m, r);
  }
  toString = () => `FileDispute(${this.pick}, ${this.target})`;
}

/** The disputed agent answers (`foreign`: another agent's signature, refused). */
export class RespondCmd<M extends DisputeAwareModel, R extends DisputeReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    readonly foreign: boolean,
    private readonly verify: Verify<M, R>,
    private readonly snapshot: Snapshot,
  ) {}
  check = (m: Readonly<M>) => m.disputes.length > 0;
  async run(m: M, r: R) {
    const d = choose(m.disputes, this.pick, (x) => x.status === 'pending');
    const agentId = this.foreign ? m.agents.find((a) => a !== d.charge.agentId)! : d.charge.agentId;
    const now = r.clock.nowMs();
    const auth = {
      agentId,
      wallet: '0x',
      timestampMs: now,
      forChange: true,
      unbound: false,
      messageKey: `${agentId}:${randomUUID()}`,
      expiresAt: new Date(now + 300_000),
    };
    const respond = () =>
      r.get(RespondToDispute).execute({ disputeId: d.id, response: 'it was', evidence: null, auth });
    if (this.foreign) await refused(r, this.snapshot, 'FORBIDDEN', respond);
    else if (d.status !== 'pending' || d.respondBy < now) await refused(r, this.snapshot, 'INVALID_STATE', respond);
    else {
      expect((await respond()).status).toBe('responded');
      d.status = 'responded';
      disputeStats.responded++;
    }
    await this.verify(m, r);
  }
  toString = () => `Respond(${this.pick}${this.foreign ? ', foreign agent' : ''})`;
}

/**
 * The model of a resolution: the refund R of the agent fee F (agent_wins 0, client_wins F, split F div 2) is split by the fee rule
 * (all of F: the charge's own cut C and earnings E). Its cut part comes from revenue and its earnings part from what was frozen; the
 * part of the earnings the agent had withdrawn is its debt to PAYER (owed -> refund_due), or with `advance` refunded now and owed
 * to the platform. The rest of the frozen earnings is released to the agent (its debts repaid first).
 */
function settle(
  m: DisputeAwareModel,
  d: DisputeModel,
  outcome: DisputeOutcome,
  result: DisputeView | null,
  resolvedBy: string,
  advance = false,
): void {
  const fee = d.charge.fee;
  const refund = outcome === 'agent_wins' ? 0n : outcome === 'client_wins' ? fee : fee / 2n;
  const { cut, earnings } = splitAgentFee(refund);
  const fromEarnings = min(earnings, d.frozen);
  const shortfall = earnings - fromEarnings;
  const advanced = advance && outcome !== 'agent_wins' ? shortfall : 0n;
  const outstanding = shortfall - advanced;
  const released = d.frozen - fromEarnings;
  add(m.frozen, d.charge.agentId, -d.frozen);
  m.revenue -= cut;
  m.payerRefundPayable += cut + fromEarnings + advanced;
  if (shortfall > 0n) {
    add(m.owed, d.charge.agentId, -shortfall);
    m.debts.push({
      agentId: d.charge.agentId,
      creditor: advanced > 0n ? 'platform' : 'payer',
      amount: shortfall,
      repaid: 0n,
      refunded: 0n,
    });
    if (advanced > 0n) disputeStats.advanced++;
    else {
      m.payerRefundDue += outstanding;
      disputeStats.owedToPayer++;
    }
  }
  if (released > 0n) credit(m, d.charge.agentId, released);
  expect({
    status: result?.status,
    resolution: result?.resolution,
    outstanding: result?.outstandingAmount,
    advanced: result?.advancedAmount,
  }).toEqual({
    status: 'resolved',
    resolution: {
      outcome,
      note: expect.anything(),
      refundAmount: formatMicros(refund),
      releasedAmount: formatMicros(released),
      resolvedBy,
      ...(advance && outcome !== 'agent_wins' ? { advance: true } : {}),
    },
    outstanding,
    advanced,
  });
  d.status = 'resolved';
  disputeStats[outcome]++;
  m.done.push({ kind: 'dispute', id: d.id });
}

export const OUTCOMES: DisputeOutcome[] = ['agent_wins', 'client_wins', 'split'];

/** The platform resolves a dispute (`any`: perhaps a resolved one, refused), once. */
export class ResolveCmd<M extends DisputeAwareModel, R extends DisputeReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    readonly outcome: DisputeOutcome,
    readonly any: boolean,
    private readonly verify: Verify<M, R>,
    private readonly snapshot: Snapshot,
    readonly advance = false,
  ) {}
  check = (m: Readonly<M>) => m.disputes.length > 0;
  async run(m: M, r: R) {
    const d = this.any
      ? m.disputes[this.pick % m.disputes.length]
      : choose(m.disputes, this.pick, (x) => x.status !== 'resolved');
    const resolve = () =>
      r.get(ResolveDispute).execute({
        disputeId: d.id,
        outcome: this.outcome,
        note: 'decided',
        resolvedBy: 'admin',
        advance: this.advance,
      });
    if (d.status === 'resolved') await refused(r, this.snapshot, 'INVALID_STATE', resolve);
    else settle(m, d, this.outcome, await resolve(), 'admin', this.advance);
    await this.verify(m, r);
  }
  toString = () => `Resolve(${this.pick}, ${this.outcome}${this.any ? ', any' : ''}${this.advance ? ', advance' : ''})`;
}

/** The response deadline's job: a dispute still pending with its window closed resolves client_wins; anything else is left alone. */
export class ResolveOverdueCmd<M extends DisputeAwareModel, R extends DisputeReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    private readonly verify: Verify<M, R>,
    private readonly snapshot: Snapshot,
  ) {}
  check = (m: Readonly<M>) => m.disputes.length > 0;
  async run(m: M, r: R) {
    const d = choose(m.disputes, this.pick, (x) => x.status !== 'resolved');
    if (d.status === 'pending' && d.respondBy <= r.clock.nowMs()) {
      expect(await r.get(ResolveOverdueDispute).execute(d.id)).toBe(true);
      settle(m, d, 'client_wins', await r.get(GetDispute).execute(d.id), 'system:timeout');
      disputeStats.overdue++;
    } else {
      const before = await this.snapshot(r.ds);
      expect(await r.get(ResolveOverdueDispute).execute(d.id)).toBe(false);
      expect(await this.snapshot(r.ds)).toBe(before);
    }
    await this.verify(m, r);
  }
  toString = () => `ResolveOverdue(${this.pick})`;
}

/** I10 for a resolved dispute: filing it again, resolving it again (any outcome) and its deadline job move nothing. */
export async function replayDispute(
  m: DisputeAwareModel,
  r: DisputeReal,
  snapshot: Snapshot,
  id: string,
  pick: number,
): Promise<void> {
  const d = m.disputes.find((x) => x.id === id)!;
  await refused(r, snapshot, 'DISPUTE_EXISTS', () => file(r, m, d.charge));
  await refused(r, snapshot, 'INVALID_STATE', () =>
    r.get(ResolveDispute).execute({ disputeId: id, outcome: OUTCOMES[pick % 3], note: null, resolvedBy: 'admin' }),
  );
  const before = await snapshot(r.ds);
  expect(await r.get(ResolveOverdueDispute).execute(id)).toBe(false);
  expect(await snapshot(r.ds)).toBe(before);
  disputeStats.replayed++;
}

/** What FileDisputeCmd targets, weighted by repetition. */
export const FILE_TARGETS = ['new', 'new', 'new', 'short', 'short', 'short', 'again', 'imposter'] as const;
