import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppException, Clock, formatMicros, newId, normalizeWallet, NotFoundException, Page } from '@app/common';
import { queryRows, TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { jobId, JobProducer } from '@app/queues';
import { WithdrawalEntity } from './entities/withdrawal.entity';
import { WITHDRAWAL_FEE, WITHDRAWAL_MINIMUM } from './fees';
import { PayoutSender, PayoutTable } from '@app/onchain';
import { Reserve, WithdrawalReserve } from './withdrawal-reserve';

const WITHDRAWAL_PAYOUT: PayoutTable = {
  table: 'withdrawals',
  toColumn: 'destination_wallet',
  amountColumn: 'net_amount',
};

export interface WithdrawalSummary {
  totalCount: number;
  totalWithdrawn: bigint;
  pendingAmount: bigint;
}

/**
 * Withdrawals (resolutions §6): the amount is reserved from available in the transaction that
 * creates the row; the worker claims it, sends the net amount, then posts completion, or
 * returns the amount to available when it fails for good.
 */
@Injectable()
export class WithdrawalsService {
  constructor(
    private readonly ledger: LedgerService,
    private readonly outbox: OutboxService,
    private readonly walletAuth: WalletAuthService,
    private readonly payouts: PayoutSender,
    private readonly reserve: WithdrawalReserve,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly jobs: JobProducer,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly metrics: Metrics,
  ) {}

  /** Wakes the worker for a withdrawal; the sweeper re-enqueues if Redis loses it. */
  async enqueue(id: string): Promise<void> {
    await this.jobs.wake('withdrawal.process', { withdrawalId: id }, { jobId: jobId('withdrawal.process', id) });
  }

  async request(
    agentId: string,
    auth: WalletAuthContext,
    amount: bigint,
    destinationWallet: string,
  ): Promise<WithdrawalEntity> {
    if (auth.agentId !== agentId) throw new AppException('FORBIDDEN', 'The signature was made for another agent');
    if (amount < WITHDRAWAL_MINIMUM) {
      throw new AppException(
        'WITHDRAWAL_BELOW_MINIMUM',
        `The minimum withdrawal is ${formatMicros(WITHDRAWAL_MINIMUM)}`,
        {
          minimum: formatMicros(WITHDRAWAL_MINIMUM),
          requested: formatMicros(amount),
        },
      );
    }
    const id = newId('wd');
    await this.tx.run(async (manager) => {
      await this.walletAuth.consume(manager, auth);
      // Available locked first: the reserve read under it holds until this withdrawal commits.
      const locked = await this.ledger.lockBalances(manager, [
        Accounts.agentAvailable(agentId).code,
        Accounts.agentWithdrawing(agentId).code,
      ]);
      const available = locked.get(Accounts.agentAvailable(agentId).code)!;
      const reserve = await this.reserve.of(agentId, available, manager);
      if (reserve.reserved > 0n && amount > available - reserve.reserved)
        throw reservedError(available, reserve, amount, await reserve.freeFor(amount));
      await this.ledger.post(manager, {
        code: 'withdrawal.requested',
        refId: id,
        legs: [
          { account: Accounts.agentAvailable(agentId), amount: -amount },
          { account: Accounts.agentWithdrawing(agentId), amount },
        ],
      });
      await manager.query(
        `INSERT INTO withdrawals (id, agent_id, amount, fee, net_amount, destination_wallet, status, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7)`,
        [
          id,
          agentId,
          amount.toString(),
          WITHDRAWAL_FEE.toString(),
          (amount - WITHDRAWAL_FEE).toString(),
          normalizeWallet(destinationWallet),
          this.clock.now(),
        ],
      );
      // Last, as a charge takes the agent's row after its accounts; the share lock makes a suspension
      // committing meanwhile wait for this transaction, or this one see it. A suspension by score stops
      // executions only: the agent can still withdraw what is past its reserve (resolutions §7).
      const [agent] = await queryRows<{ status: string; suspendedBy: string | null }>(
        manager,
        `SELECT status, suspended_by AS "suspendedBy" FROM agents WHERE id = $1 FOR SHARE`,
        [agentId],
      );
      if (agent?.status === 'suspended' && agent.suspendedBy !== 'reputation') {
        throw new AppException(
          'FORBIDDEN',
          'An agent suspended by the platform cannot withdraw until it is reinstated',
          { status: agent.status },
        );
      }
    });
    this.metrics.payouts.inc({ kind: 'withdrawal', state: 'requested' });
    await this.enqueue(id);
    return this.get(id);
  }

  async get(id: string): Promise<WithdrawalEntity> {
    const w = await this.dataSource.manager.findOne(WithdrawalEntity, { where: { id } });
    if (!w) throw new NotFoundException('WITHDRAWAL_NOT_FOUND', 'Withdrawal', id);
    return w;
  }

  async list(agentId: string, page: Page): Promise<{ withdrawals: WithdrawalEntity[]; summary: WithdrawalSummary }> {
    const withdrawals = await this.dataSource.manager.find(WithdrawalEntity, {
      where: { agentId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: page.limit,
      skip: page.offset,
    });
    const [s] = await this.dataSource.query(
      `SELECT count(*)::int AS "totalCount",
              coalesce(sum(amount) FILTER (WHERE status = 'completed'), 0)::text AS "totalWithdrawn",
              coalesce(sum(amount) FILTER (WHERE status IN ('pending', 'processing')), 0)::text AS "pendingAmount"
         FROM withdrawals WHERE agent_id = $1`,
      [agentId],
    );
    return {
      withdrawals,
      summary: {
        totalCount: s.totalCount,
        totalWithdrawn: BigInt(s.totalWithdrawn),
        pendingAmount: BigInt(s.pendingAmount),
      },
    };
  }

  /**
   * Worker step: the payout sender claims the row and sends the net amount; then the
   * withdrawal completes, or fails (amount back to available). Throws to let the queue retry.
   */
  async process(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const state = await this.processOnce(id);
    if (state !== 'skipped') this.metrics.payouts.inc({ kind: 'withdrawal', state });
    return state;
  }

  private async processOnce(id: string): Promise<'completed' | 'failed' | 'skipped'> {
    const outcome = await this.payouts.send(WITHDRAWAL_PAYOUT, id);
    if (outcome.kind === 'skipped') return 'skipped';
    if (outcome.kind === 'failed')
      return (await this.fail(id, outcome.error, outcome.claimToken)) ? 'failed' : 'skipped';
    return (await this.complete(id, outcome.txHash, outcome.claimToken)) ? 'completed' : 'skipped';
  }

  /** Completes the withdrawal only while `claimToken` still holds it. */
  private async complete(id: string, txHash: string, claimToken: string): Promise<boolean> {
    return this.tx.run(async (manager) => {
      const [w] = await this.transition(manager, id, ['processing'], 'completed', { txHash, claimToken });
      if (!w) return false;
      await this.ledger.post(manager, {
        code: 'withdrawal.completed',
        refId: id,
        legs: [
          { account: Accounts.agentWithdrawing(w.agentId), amount: -w.amount },
          { account: Accounts.worldChain(), amount: w.netAmount },
          { account: Accounts.platformRevenue(), amount: w.fee },
        ],
      });
      await this.outbox.record(manager, 'withdrawal.completed', w.agentId, { ...eventData(w), txHash });
      return true;
    });
  }

  /**
   * Gives the amount back to available; the withdrawal ends `failed` (with a claim token, only
   * while that claim still holds it; without one, only a row no sender has claimed). The row keeps the sender's error; the event says only what happened (a node's error
   * text can carry an RPC URL or a key).
   */
  async fail(id: string, error: string, claimToken?: string): Promise<boolean> {
    return this.tx.run(async (manager) => {
      const [w] = await this.transition(manager, id, ['pending', 'processing'], 'failed', { error, claimToken });
      if (!w) return false;
      await this.ledger.post(manager, {
        code: 'withdrawal.failed',
        refId: id,
        legs: [
          { account: Accounts.agentWithdrawing(w.agentId), amount: -w.amount },
          { account: Accounts.agentAvailable(w.agentId), amount: w.amount },
        ],
      });
      await this.outbox.record(manager, 'withdrawal.failed', w.agentId, {
        ...eventData(w),
        error: /reverted/.test(error) ? 'The transfer reverted on chain' : 'The transfer could not be sent',
      });
      return true;
    });
  }

  private async transition(
    manager: EntityManager,
    id: string,
    from: string[],
    to: 'completed' | 'failed',
    extra: { txHash?: string; error?: string; claimToken?: string },
  ): Promise<WithdrawalMoney[]> {
    const rows = await queryRows<Record<string, string>>(
      manager,
      `UPDATE withdrawals SET status = $3::varchar, completed_at = CASE WHEN $3::varchar = 'completed' THEN $4::timestamptz ELSE completed_at END,
              tx_hash = coalesce($5, tx_hash), error = coalesce($6, error), locked_until = NULL
        WHERE id = $1 AND status = ANY($2::text[]) AND (($7::varchar IS NULL AND claim_token IS NULL) OR claim_token = $7)
        RETURNING id, agent_id AS "agentId", amount, fee, net_amount AS "netAmount", destination_wallet AS "destinationWallet", tx_hash AS "txHash"`,
      [id, from, to, this.clock.now(), extra.txHash ?? null, extra.error ?? null, extra.claimToken ?? null],
    );
    return rows.map((r) => ({
      id: r.id,
      agentId: r.agentId,
      destinationWallet: r.destinationWallet,
      amount: BigInt(r.amount),
      fee: BigInt(r.fee),
      netAmount: BigInt(r.netAmount),
    }));
  }

  /** Withdrawals that need the worker (for the sweeper): pending, or claimed by a worker that died. */
  dueForProcessing(limit = 200): Promise<string[]> {
    return this.payouts.due(WITHDRAWAL_PAYOUT, limit);
  }
}

interface WithdrawalMoney {
  id: string;
  agentId: string;
  amount: bigint;
  fee: bigint;
  netAmount: bigint;
  destinationWallet: string;
}

/** A withdrawal that would take reserved earnings: how much is reserved, and when enough of it frees. */
function reservedError(available: bigint, reserve: Reserve, amount: bigint, until: Date | null): AppException {
  return new AppException(
    'INSUFFICIENT_BALANCE',
    `${formatMicros(reserve.reserved)} of the available balance is reserved while its transactions can still be disputed` +
      (until ? `; ${formatMicros(amount)} can be withdrawn from ${until.toISOString()}` : ''),
    {
      available: formatMicros(available),
      reserved: formatMicros(reserve.reserved),
      withdrawable: formatMicros(available - reserve.reserved),
      requested: formatMicros(amount),
      reservedUntil: reserve.reservedUntil!.toISOString(),
      ...(until ? { withdrawableAt: until.toISOString() } : {}),
    },
  );
}

function eventData(w: WithdrawalMoney) {
  return {
    withdrawalId: w.id,
    agentId: w.agentId,
    amount: formatMicros(w.amount),
    fee: formatMicros(w.fee),
    netAmount: formatMicros(w.netAmount),
    destinationWallet: w.destinationWallet,
  };
}
