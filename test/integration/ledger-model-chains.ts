import fc from 'fast-check';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ChainBudget, ChainsRepository, FinishChain } from '@app/chains';
import { AppException, newId } from '@app/common';
import { allWrites, TransactionRunner } from '@app/database';
import { Accounts } from '@app/ledger';
import { PLATFORM_FEE, RecordCharge, splitAgentFee } from '@app/payments';
import { CLIENT_WALLET } from '../support/money';
import { credit, DebtModel } from './ledger-model-debts';

/** What the model of the ledger test keeps of chains (G1 with chain operations). */
export interface ChainModel {
  id: string;
  /** chain:budget in the ledger. */
  budget: bigint;
  /** What no running node has reserved (the chain row's `available`). */
  available: bigint;
  root: { executionId: string; reserved: bigint; open: boolean };
  nodes: { executionId: string; agentIdx: number; reserved: bigint; open: boolean }[];
  final: boolean;
}

/** The parts of the ledger model the chain commands move; the spec's verify() compares them with the accounts. */
export interface ChainAwareModel {
  agents: string[];
  reputation: Map<string, number>;
  available: Map<string, bigint>;
  /** What each agent owes (its dispute debts), repaid first by every release of its earnings. */
  owed: Map<string, bigint>;
  escrow: Map<string, bigint>;
  revenue: bigint;
  world: bigint;
  refundPayable: bigint;
  /** The disputes' model of PAYER's refunds and the agents' debts (a release repays them: ledger-model-disputes.ts credit). */
  payerRefundPayable: bigint;
  payerRefundDue: bigint;
  debts: DebtModel[];
  chains: ChainModel[];
  holds: { id: string; agentId: string; amount: bigint; releaseAt: number; released: boolean }[];
}

export interface ChainReal {
  ds: DataSource;
  get<T>(type: new (...args: never[]) => T): T;
}

type Verify<M, R> = (m: M, r: R) => Promise<void>;
const add = (m: Map<string, bigint>, k: string, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);

/** Expected balances of every chain account of the model (its budget, by code). */
export function chainBalances(m: ChainAwareModel): Map<string, bigint> {
  return new Map(m.chains.map((c) => [Accounts.chainBudget(c.id).code, c.budget] as const));
}

/** Opens and funds a chain (a settled payment of root cost + budget), its root reserving its cost. */
export class OpenChain<M extends ChainAwareModel, R extends ChainReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly budget: bigint,
    readonly rootCost: bigint,
    private readonly verify: Verify<M, R>,
  ) {}
  check = () => true;
  async run(m: M, r: R) {
    const id = randomUUID();
    const root = { executionId: newId('req'), reserved: this.rootCost, open: true };
    const paymentId = newId('pay');
    const amount = this.budget + this.rootCost;
    const now = new Date();
    await r.get(TransactionRunner).pipelined((sql) =>
      allWrites([
        sql.query(
          `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before, signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
           VALUES ($1, 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $2, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', $3, $4, 0, 9999999999, '0x', 'h', 'execution', $5, 'settled', '0x', now())`,
          [paymentId, CLIENT_WALLET, `0x${randomBytes(32).toString('hex')}`, amount.toString(), root.executionId],
        ),
        r.get(ChainsRepository).insert(sql, {
          id,
          rootExecutionId: root.executionId,
          rootAgentId: randomUUID(),
          rootWallet: CLIENT_WALLET,
          paymentId,
          budget: this.budget,
          maxDepth: 2,
          traceId: randomBytes(16).toString('hex'),
          startedAt: now,
          expiresAt: new Date(now.getTime() + 3_600_000),
        }),
        r.get(ChainBudget).fund(sql, id, amount, paymentId),
        r.get(ChainBudget).reserve(
          sql,
          {
            ...root,
            chainId: id,
            parentExecutionId: null,
            agentId: randomUUID(),
            capabilityId: 'root',
            depth: 0,
            spanId: randomBytes(8).toString('hex'),
            startedAt: now,
          },
          now,
        ),
      ]),
    );
    m.world -= amount;
    m.chains.push({ id, budget: amount, available: this.budget, root, nodes: [], final: false });
    await this.verify(m, r);
  }
  toString = () => `OpenChain(budget ${this.budget}, root ${this.rootCost})`;
}

/** A sub-call reserves its most cost: refused with BUDGET_EXCEEDED when the budget cannot cover it. */
export class ReserveNode<M extends ChainAwareModel, R extends ChainReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    readonly agentIdx: number,
    readonly reserved: bigint,
    private readonly verify: Verify<M, R>,
  ) {}
  check = (m: Readonly<M>) => m.chains.some((c) => c.root.open);
  async run(m: M, r: R) {
    const live = m.chains.filter((c) => c.root.open);
    const c = live[this.pick % live.length];
    const node = { executionId: newId('req'), agentIdx: this.agentIdx, reserved: this.reserved, open: true };
    const now = new Date();
    const outcome = await r
      .get(TransactionRunner)
      .pipelined((sql) =>
        r.get(ChainBudget).reserve(
          sql,
          {
            executionId: node.executionId,
            chainId: c.id,
            parentExecutionId: c.root.executionId,
            agentId: m.agents[this.agentIdx],
            capabilityId: 'cap',
            depth: 1,
            spanId: randomBytes(8).toString('hex'),
            reserved: this.reserved,
            startedAt: now,
          },
          now,
        ),
      )
      .catch((e: unknown) => e);
    if (this.reserved > c.available) {
      expect((outcome as AppException).code).toBe('BUDGET_EXCEEDED');
    } else {
      expect(outcome).toBe(c.available - this.reserved);
      c.available -= this.reserved;
      c.nodes.push(node);
    }
    await this.verify(m, r);
  }
  toString = () => `ReserveNode(${this.pick}, agent ${this.agentIdx}, ${this.reserved})`;
}

/** A running sub-call ends: charged (a share of its reservation as the agent fee; the rest available again) or refunded. */
export class EndNode<M extends ChainAwareModel, R extends ChainReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    readonly share: number,
    readonly completed: boolean,
    private readonly verify: Verify<M, R>,
  ) {}
  check = (m: Readonly<M>) => m.chains.some((c) => c.nodes.some((n) => n.open));
  async run(m: M, r: R) {
    const open = m.chains.flatMap((c) => c.nodes.filter((n) => n.open).map((n) => ({ c, n })));
    const { c, n } = open[this.pick % open.length];
    const end = { executionTimeMs: 7, completedAt: new Date() };
    const budget = r.get(ChainBudget);
    if (this.completed && n.reserved >= PLATFORM_FEE) {
      const authorized = n.reserved - PLATFORM_FEE;
      const agentFee = (authorized * BigInt(this.share)) / 100n;
      const agentId = m.agents[n.agentIdx];
      const transactionId = newId('tx');
      const [{ hold }] = await r.get(TransactionRunner).pipelined((sql) =>
        allWrites([
          r.get(RecordCharge).write(sql, {
            transactionId,
            paymentId: null,
            payerWallet: CLIENT_WALLET,
            requestingAgent: 'caller',
            agentId,
            agentReputation: m.reputation.get(agentId)!,
            capabilityId: 'cap',
            agentFee,
            platformFee: PLATFORM_FEE,
            executionTimeMs: 7,
            refund: { executionId: n.executionId, authorizedAgentFee: authorized },
            source: { from: Accounts.chainBudget(c.id) },
          }),
          budget.complete(sql, n.executionId, { cost: PLATFORM_FEE + agentFee, transactionId, ...end }),
        ]),
      );
      const { cut, earnings } = splitAgentFee(agentFee);
      c.budget -= PLATFORM_FEE + agentFee;
      c.available += n.reserved - PLATFORM_FEE - agentFee;
      m.revenue += PLATFORM_FEE + cut;
      if (hold.status === 'released') credit(m, agentId, earnings);
      else {
        add(m.escrow, agentId, earnings);
        m.holds.push({ id: hold.id, agentId, amount: earnings, releaseAt: hold.releaseAt.getTime(), released: false });
      }
    } else {
      await r.get(TransactionRunner).pipelined((sql) => budget.release(sql, { executionId: n.executionId }, end));
      c.available += n.reserved;
    }
    n.open = false;
    await this.verify(m, r);
  }
  toString = () => `EndNode(${this.pick}, ${this.completed ? `charged ${this.share}%` : 'refunded'})`;
}

/** The root ends (its reservation available again); once nothing runs the chain finishes, refunding the rest once. */
export class EndRoot<M extends ChainAwareModel, R extends ChainReal> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly pick: number,
    private readonly verify: Verify<M, R>,
  ) {}
  check = (m: Readonly<M>) => m.chains.some((c) => !c.final);
  async run(m: M, r: R) {
    const live = m.chains.filter((c) => !c.final);
    const c = live[this.pick % live.length];
    const budget = r.get(ChainBudget);
    if (c.root.open) {
      await r
        .get(TransactionRunner)
        .pipelined((sql) =>
          budget.release(sql, { executionId: c.root.executionId }, { executionTimeMs: 9, completedAt: new Date() }),
        );
      c.root.open = false;
      c.available += c.root.reserved;
    }
    const running = c.nodes.some((n) => n.open);
    expect(await r.get(FinishChain).execute(c.id)).toBe(!running);
    if (!running) {
      expect(c.available).toBe(c.budget); // nothing runs: nothing reserved
      // The root here always ends uncharged (failed): it keeps the platform fee, the rest is refunded.
      const fee = c.budget < PLATFORM_FEE ? c.budget : PLATFORM_FEE;
      m.revenue += fee;
      m.refundPayable += c.budget - fee;
      c.budget = 0n;
      c.available = 0n;
      c.final = true;
      expect(await r.get(FinishChain).execute(c.id)).toBe(false); // once
    }
    await this.verify(m, r);
  }
  toString = () => `EndRoot(${this.pick})`;
}
