import { Injectable } from '@nestjs/common';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { NotFoundException } from '@app/common';
import { PaymentFundings } from '@app/payments';
import { ChainPort } from '../../../chain-port';
import { ExecutionEntity } from '../../../entities/execution.entity';
import { PaymentProof, Settlement } from '../../../execution.types';
import { presentsOriginalPayment } from '../../../execution-rows';
import { ExecutionsRepository } from '../../../executions.repository';

export interface ExecutionView {
  execution: ExecutionEntity;
  settlement: Settlement;
  /** Whether the reader may see the output: the payer, or a chain token whose holder's subtree holds it. */
  isPayer: boolean;
}

/** Reads an execution with its settlement and refund, and whether the reader is its payer. */
@Injectable()
export class GetExecution {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly payments: PaymentFundings,
    private readonly chains: ChainPort,
    private readonly payerRead: PayerRead,
  ) {}

  /**
   * The reader is the payer with the original payment header; for an execution in a chain, the
   * header that paid for the chain (its root's) reads every execution in it. A chain token reads
   * only its holder's subtree, the root excepted, while the holder runs (ChainReadScope): any
   * other execution is FORBIDDEN to it. A token that does not verify is refused (401).
   * The payer also reads without its payment header (`payer`, PayerRead): its wallet's fresh signature over
   * `agora-auth:<wallet>:<unix_ms>`, or its console session signed in as that paying wallet (another wallet's
   * signature or session reads as a visitor, as another payment header does). An execution in a chain is the
   * root payer's.
   */
  async execute(
    id: string,
    payment: PaymentProof | null,
    chainToken?: string,
    payer: PayerReadProof = {},
  ): Promise<ExecutionView> {
    const grant = chainToken === undefined ? null : this.chains.readGrant(chainToken);
    const execution = await this.repo.findById(id);
    if (!execution) throw new NotFoundException('EXECUTION_NOT_FOUND', 'Execution', id);
    const paid =
      presentsOriginalPayment(execution, payment) ||
      (execution.chainId !== null &&
        execution.headerHash === null &&
        (await this.chains.paidChain(execution.chainId, payment))) ||
      (await this.payerRead.reads(execution.payer, payer));
    if (!paid && grant !== null) await grant.assertReadable(execution);
    return { execution, settlement: await this.settlementOf(execution), isPayer: paid || grant !== null };
  }

  /**
   * The settlement hash and receipt of a settled execution, and its refund if it has one; of one
   * whose settlement is pending, the hash of the transaction carrying it once one was sent.
   */
  async settlementOf(execution: ExecutionEntity): Promise<Settlement> {
    if (execution.settlementStatus === 'settlement_pending' && execution.paymentId)
      return { ...(await this.payments.pendingSettlement(execution.paymentId)), signed: execution.receipt };
    const settled = execution.settlementStatus === 'settled' ? execution.paymentId : null;
    const settlement = await this.payments.settlementOf(settled, execution.refundId);
    return { ...settlement, signed: settled ? execution.receipt : null };
  }
}
