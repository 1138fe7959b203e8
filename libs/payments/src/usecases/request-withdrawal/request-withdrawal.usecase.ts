import { Injectable } from '@nestjs/common';
import { WalletAuthContext, WalletAuthService } from '@app/auth';
import { AppException, Clock, formatMicros, newId, normalizeWallet } from '@app/common';
import { TransactionRunner } from '@app/database';
import { Accounts, LedgerService } from '@app/ledger';
import { Metrics } from '@app/metrics';
import { WithdrawalEntity } from '../../entities/withdrawal.entity';
import { WITHDRAWAL_FEE, WITHDRAWAL_MINIMUM } from '../../fees';
import { WithdrawalsRepository } from '../../repositories/withdrawals.repository';
import { Reserve, WithdrawalReserve } from '../../withdrawal-reserve';
import { WithdrawalsService } from '../../withdrawals.service';

export interface RequestWithdrawalCommand {
  agentId: string;
  /** The agent's wallet signature for this change (consumed in the withdrawal's transaction). */
  auth: WalletAuthContext;
  amount: bigint;
  destinationWallet: string;
}

/**
 * `POST /payments/withdraw` (resolutions §6): the amount is reserved from available (available ->
 * withdrawing) in the transaction that creates the row, unless the rolling reserve keeps it; the
 * worker is woken after commit. The fee is fixed (WITHDRAWAL_FEE); the net amount is what is sent.
 */
@Injectable()
export class RequestWithdrawal {
  constructor(
    private readonly repo: WithdrawalsRepository,
    private readonly withdrawals: WithdrawalsService,
    private readonly ledger: LedgerService,
    private readonly walletAuth: WalletAuthService,
    private readonly reserve: WithdrawalReserve,
    private readonly tx: TransactionRunner,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
  ) {}

  async execute({ agentId, auth, amount, destinationWallet }: RequestWithdrawalCommand): Promise<WithdrawalEntity> {
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
    const created = await this.tx.run(async (manager) => {
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
      await this.repo.insert(manager, {
        id,
        agentId,
        amount,
        fee: WITHDRAWAL_FEE,
        destinationWallet: normalizeWallet(destinationWallet),
        now: this.clock.now(),
      });
      // Last, as a charge takes the agent's row after its accounts; the share lock makes a suspension
      // committing meanwhile wait for this transaction, or this one see it. A suspension by score stops
      // executions only: the agent can still withdraw what is past its reserve (resolutions §7).
      const agent = await this.repo.agentStatusForShare(manager, agentId);
      if (agent?.status === 'suspended' && agent.suspendedBy !== 'reputation') {
        throw new AppException(
          'FORBIDDEN',
          'An agent suspended by the platform cannot withdraw until it is reinstated',
          { status: agent.status },
        );
      }
      // The answer is the withdrawal as created (`pending`, the contract's create response), read in this
      // transaction: after it commits, the worker or the sweeper may already have moved it on.
      return (await this.repo.findById(id, manager))!;
    });
    this.metrics.payouts.inc({ kind: 'withdrawal', state: 'requested' });
    await this.withdrawals.enqueue(id);
    return created;
  }
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
