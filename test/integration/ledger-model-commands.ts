import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppException, FixedClock } from '@app/common';
import { WalletAuthContext } from '@app/auth';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import {
  FailWithdrawal,
  PAYMENT_CHECKS,
  PLATFORM_FEE,
  ProcessWithdrawal,
  ReleaseHold,
  RequestWithdrawal as RequestWithdrawalUseCase,
  splitAgentFee,
  WITHDRAWAL_FEE,
  WITHDRAWAL_MINIMUM,
} from '@app/payments';
import { ApiHarness } from '../support/api-harness';
import { CHAIN_CHECKS } from '@app/chains';
import { DISPUTE_CHECKS } from '@app/disputes';
import { CLIENT_WALLET, seedCharge } from '../support/money';
import { ChainModel, chainBalances } from './ledger-model-chains';
import * as D from './ledger-model-disputes';
import { propertyRuns } from '../support/property-runs';

export const OPERATIONS = propertyRuns(1_000);
export const REPUTATIONS = [90, 65, 50, 30, 10]; // Excellent, Trusted (instant), Standard, At Risk, Critical (held)
export const HOLD_S = { standard: 60, atRisk: 180, critical: 600 };

export interface Model {
  agents: string[];
  reputation: Map<string, number>;
  available: Map<string, bigint>;
  escrow: Map<string, bigint>;
  withdrawing: Map<string, bigint>;
  frozen: Map<string, bigint>;
  owed: Map<string, bigint>;
  revenue: bigint;
  world: bigint;
  refundPayable: bigint;
  payerRefundPayable: bigint;
  payerRefundDue: bigint;
  debts: D.DebtModel[];
  chains: ChainModel[];
  holds: { id: string; agentId: string; amount: bigint; releaseAt: number; released: boolean; frozen?: boolean }[];
  withdrawals: { id: string; agentId: string; amount: bigint; open: boolean }[];
  charges: D.ChargeModel[];
  disputes: D.DisputeModel[];
  done: { kind: 'hold' | 'withdrawal' | 'dispute'; id: string }[];
  signatures: number;
}

export interface Real {
  app: ApiHarness['app'];
  ds: DataSource;
  ledger: LedgerService;
  releaseHold: ReleaseHold;
  processWithdrawal: ProcessWithdrawal;
  failWithdrawal: FailWithdrawal;
  requestWithdrawal: RequestWithdrawalUseCase;
  clock: FixedClock;
  get<T>(type: new (...args: never[]) => T): T;
}

export let steps = 0;
export const add = (m: Map<string, bigint>, k: string, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);

export async function snapshot(ds: DataSource): Promise<string> {
  const accounts = await ds.query(`SELECT code, balance::text, version::text FROM ledger_accounts ORDER BY code`);
  const entries = await ds.query(`SELECT count(*)::int AS n FROM ledger_entries`);
  const holds = await ds.query(`SELECT id, status FROM escrow_holds ORDER BY id`);
  const wds = await ds.query(`SELECT id, status FROM withdrawals ORDER BY id`);
  const disputes = await ds.query(
    `SELECT id, status, frozen_amount::text, advanced_amount::text, resolution, responded_at FROM disputes ORDER BY id`,
  );
  const txs = await ds.query(`SELECT id, status, dispute_id FROM transactions ORDER BY id`);
  const refunds = await ds.query(`SELECT id, status, amount::text FROM refunds ORDER BY id`);
  const [counts] = await ds.query(
    `SELECT (SELECT count(*) FROM used_auth_messages)::int AS auth, (SELECT count(*) FROM outbox_events)::int AS outbox, (SELECT count(*) FROM reputation_events)::int AS rep`,
  );
  return JSON.stringify({ accounts, entries, holds, wds, disputes, txs, refunds, counts });
}

export async function verify(m: Model, r: Real): Promise<void> {
  steps += 1;
  const report = await runInvariantChecks(r.ds.manager, [
    ...LEDGER_CHECKS,
    ...PAYMENT_CHECKS,
    ...CHAIN_CHECKS,
    ...DISPUTE_CHECKS,
  ]);
  const violations = report.results
    .filter((x) => x.violations.length)
    .map((x) => `${x.id}: ${x.violations.join('; ')}`);
  expect(violations).toEqual([]);
  const perAgent = [
    [Accounts.agentAvailable, m.available],
    [Accounts.agentEscrow, m.escrow],
    [Accounts.agentWithdrawing, m.withdrawing],
    [Accounts.agentFrozen, m.frozen],
    [Accounts.agentOwed, m.owed],
  ] as const;
  const expected = new Map(
    m.agents.flatMap((a) => perAgent.map(([account, model]) => [account(a).code, model.get(a) ?? 0n] as const)),
  );
  for (const [code, balance] of chainBalances(m)) expected.set(code, balance);
  const [refundCode, payerCode] = [CLIENT_WALLET, D.PAYER.address].map((w) => Accounts.clientRefundPayable(w).code);
  const dueCode = Accounts.clientRefundDue(D.PAYER.address).code;
  const real = await r.ledger.balances(r.ds.manager, [
    ...expected.keys(),
    Accounts.platformRevenue().code,
    Accounts.worldChain().code,
    refundCode,
    payerCode,
    dueCode,
  ]);
  for (const [code, balance] of expected) expect({ code, balance: real.get(code) }).toEqual({ code, balance });
  expect(real.get(refundCode)! - m.refundPayable).toBe(baseline.refundPayable);
  expect(real.get(payerCode)! - m.payerRefundPayable).toBe(baseline.payerRefundPayable);
  expect(real.get(dueCode)! - m.payerRefundDue).toBe(baseline.payerRefundDue);
  expect(real.get(Accounts.platformRevenue().code)! - m.revenue).toBe(baseline.revenue);
  expect(real.get(Accounts.worldChain().code)! - m.world).toBe(baseline.world);
}

export const baseline = { revenue: 0n, world: 0n, refundPayable: 0n, payerRefundPayable: 0n, payerRefundDue: 0n };

export class Charge implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly agent: number,
    readonly fee: bigint,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const agentId = m.agents[this.agent];
    const gross = PLATFORM_FEE + this.fee;
    const reputation = m.reputation.get(agentId)!;
    const { transaction, hold } = await seedCharge(r.app, {
      agentId,
      agentFee: this.fee,
      reputation,
      capabilityId: 'cap',
      payerWallet: D.PAYER.address.toLowerCase(),
    });
    if (this.agent === 0) D.disputeStats.selfPaid++;
    const { cut, earnings } = splitAgentFee(this.fee);
    m.world -= gross;
    m.revenue += PLATFORM_FEE + cut;
    const held =
      hold.status === 'released'
        ? null
        : { id: hold.id, agentId, amount: earnings, releaseAt: hold.releaseAt.getTime(), released: false };
    if (!held) D.credit(m, agentId, earnings);
    else {
      add(m.escrow, agentId, earnings);
      m.holds.push(held);
    }
    m.charges.push({
      txId: transaction.id,
      agentId,
      fee: this.fee,
      hold: held,
      completedAt: r.clock.nowMs(),
      disputed: false,
    });
    await verify(m, r);
  }
  toString = () => `Charge(agent ${this.agent}, fee ${this.fee})`;
}

export class AdvanceAndRelease implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, r: Real) {
    r.clock.advance(this.seconds * 1000);
    for (const h of m.holds.filter((x) => !x.released)) {
      const released = await r.releaseHold.execute(h.id);
      const due = !h.frozen && h.releaseAt <= r.clock.nowMs(); // a disputed hold is frozen, never released
      expect({ hold: h.id, released }).toEqual({ hold: h.id, released: due });
      if (due) {
        h.released = true;
        add(m.escrow, h.agentId, -h.amount);
        D.credit(m, h.agentId, h.amount);
        m.done.push({ kind: 'hold', id: h.id });
      }
    }
    await verify(m, r);
  }
  toString = () => `AdvanceAndRelease(${this.seconds}s)`;
}

export class RequestWithdrawal implements fc.AsyncCommand<Model, Real> {
  /** `amount` null: all that is available (so a dispute of earnings already released finds available short). */
  constructor(
    readonly agent: number,
    readonly amount: bigint | null,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const agentId = m.agents[this.agent];
    const auth: WalletAuthContext = {
      agentId,
      wallet: '0x',
      timestampMs: Date.now(),
      forChange: true,
      unbound: false,
      messageKey: `${agentId}:${randomUUID()}`,
      expiresAt: new Date(Date.now() + 300_000),
    };
    const available = m.available.get(agentId) ?? 0n;
    const amount = this.amount ?? available;
    const result = await r.requestWithdrawal
      .execute({ agentId, auth, amount, destinationWallet: '0x2222222222222222222222222222222222222222' })
      .catch((e: unknown) => e);
    if (amount < WITHDRAWAL_MINIMUM) expect((result as AppException).code).toBe('WITHDRAWAL_BELOW_MINIMUM');
    else if (amount > available) expect((result as AppException).code).toBe('INSUFFICIENT_BALANCE');
    else {
      const w = result as { id: string; status: string };
      expect(w.status).toBe('pending');
      add(m.available, agentId, -amount);
      add(m.withdrawing, agentId, amount);
      m.withdrawals.push({ id: w.id, agentId, amount, open: true });
    }
    await verify(m, r);
  }
  toString = () => `RequestWithdrawal(agent ${this.agent}, ${this.amount ?? 'all'})`;
}

export class SettleWithdrawal implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly succeed: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.withdrawals.some((w) => w.open);
  async run(m: Model, r: Real) {
    const open = m.withdrawals.filter((w) => w.open);
    const w = open[this.pick % open.length];
    if (this.succeed) {
      expect(await r.processWithdrawal.execute(w.id)).toBe('completed');
      add(m.withdrawing, w.agentId, -w.amount);
      m.world += w.amount - WITHDRAWAL_FEE;
      m.revenue += WITHDRAWAL_FEE;
    } else {
      expect(await r.failWithdrawal.execute(w.id, 'rejected by test')).toBe(true);
      add(m.withdrawing, w.agentId, -w.amount);
      add(m.available, w.agentId, w.amount);
    }
    w.open = false;
    m.done.push({ kind: 'withdrawal', id: w.id });
    await verify(m, r);
  }
  toString = () => `SettleWithdrawal(${this.pick}, ${this.succeed ? 'complete' : 'fail'})`;
}

export class Replay implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.done.length > 0;
  async run(m: Model, r: Real) {
    const target = m.done[this.pick % m.done.length];
    const before = await snapshot(r.ds);
    if (target.kind === 'hold') expect(await r.releaseHold.execute(target.id)).toBe(false);
    else if (target.kind === 'dispute') await D.replayDispute(m, r, snapshot, target.id, this.pick);
    else {
      expect(await r.processWithdrawal.execute(target.id)).toBe('skipped');
      expect(await r.failWithdrawal.execute(target.id, 'late failure')).toBe(false);
    }
    expect(await snapshot(r.ds)).toBe(before);
    await verify(m, r);
  }
  toString = () => `Replay(${this.pick})`;
}
