import { Injectable } from '@nestjs/common';
import { ChainBudget, ChainsRepository } from '@app/chains';
import { AppException } from '@app/common';
import { Queryable } from '@app/database';
import { PaymentEntity, PaymentSettlement, PaymentsService } from '@app/payments';
import { NonceGuard, VerifiedPayment } from '@app/x402';
import { JobProducer } from '@app/queues';
import { ChainFunding } from './chain-funding';
import { Funding } from './funding';

/** An x402 authorization paying for one execution: verified now (holding a nonce claim), or stored. */
export class X402Funding implements Funding {
  private readonly inlineHash: string | null;

  constructor(
    private payment: PaymentEntity,
    private readonly deps: { payments: PaymentsService; settlement: PaymentSettlement; nonces: NonceGuard },
    /** Set while this request holds the nonce claim of a payment verified now. */
    private readonly claim: VerifiedPayment | null,
  ) {
    this.inlineHash = deps.payments.inlineSettlement(payment);
  }

  get payer(): string {
    return this.payment.payer;
  }

  get id(): string {
    return this.payment.id;
  }

  get proofHash(): string {
    return this.payment.headerHash;
  }

  get paymentId(): string {
    return this.payment.id;
  }

  get requestingAgent(): string {
    return this.payment.payer;
  }

  get settlesOutside(): boolean {
    return this.inlineHash === null;
  }

  async reserve(sql: Queryable, executionId: string): Promise<unknown> {
    void executionId;
    return this.deps.payments.insert(sql, this.payment);
  }

  /** Inside the caller's transaction: the payment recorded already settled inline (local mode), linked to `refId`. */
  recordInline(sql: Queryable, refId: string): Promise<unknown> {
    if (this.inlineHash === null) throw new Error('this payment settles outside Postgres');
    return this.deps.payments.insertSettled(sql, this.payment, this.inlineHash, refId);
  }

  /** Inside the caller's transaction: links the payment, settled outside, to what it paid for. */
  link(sql: Queryable, refId: string): Promise<unknown> {
    return this.deps.payments.bind(sql, this.payment.id, refId);
  }

  async settleWrites(sql: Queryable, executionId: string, fresh: boolean): Promise<unknown> {
    if (this.inlineHash === null) return this.deps.payments.bind(sql, this.payment.id, executionId);
    return fresh
      ? this.deps.payments.insertSettled(sql, this.payment, this.inlineHash, executionId)
      : this.deps.payments.settleInline(sql, this.payment, this.inlineHash, executionId);
  }

  async failWrites(): Promise<unknown> {
    return undefined; // the authorization stays reserved for a retry
  }

  async afterEnd(): Promise<void> {}

  async settleOutside(): Promise<void> {
    if (this.inlineHash !== null) throw new Error('an inline settlement is written with the charge');
    this.payment = await this.deps.settlement.settle(this.payment);
  }

  receipt() {
    return this.payment.status === 'settled'
      ? { txHash: this.payment.txHash, receipt: this.deps.payments.receipt(this.payment) }
      : { txHash: null, receipt: null };
  }

  giveBack(err: unknown): void {
    if (this.claim) this.deps.nonces.giveBackAfter(err, this.claim);
  }
}

/** Builds the Funding of an execution: from a payment verified by admission, or from its stored row. */
@Injectable()
export class FundingSource {
  constructor(
    private readonly payments: PaymentsService,
    private readonly settlement: PaymentSettlement,
    private readonly nonces: NonceGuard,
    private readonly chains: ChainsRepository,
    private readonly budget: ChainBudget,
    private readonly jobs: JobProducer,
  ) {}

  /** What pays for a stored execution: its chain's reservation when it runs in a chain, else its x402 payment. */
  async forExecution(e: {
    id: string;
    chainId: string | null;
    paymentId: string | null;
  }): Promise<X402Funding | ChainFunding> {
    if (!e.chainId) return this.stored(e.paymentId!);
    const [chain, node] = await Promise.all([this.chains.find(e.chainId), this.chains.node(e.id)]);
    if (!chain || !node) throw new AppException('NOT_FOUND', `Chain node ${e.id} not found`);
    const parent = node.parentExecutionId ? await this.chains.node(node.parentExecutionId) : null;
    return this.chainNode({ ...node, rootWallet: chain.rootWallet, caller: parent?.agentId ?? chain.rootWallet });
  }

  chainNode(node: ChainFunding['node']): ChainFunding {
    return new ChainFunding(node, { budget: this.budget, jobs: this.jobs });
  }

  /** A payment verified by this request, not yet written (`paymentId` is the id it will have). */
  fromVerified(verified: VerifiedPayment, paymentId: string): X402Funding {
    return new X402Funding(this.payments.unsavedReservation(verified, 'execution', paymentId), this.deps(), verified);
  }

  async stored(paymentId: string): Promise<X402Funding> {
    const payment = await this.payments.get(paymentId);
    if (!payment) throw new AppException('NOT_FOUND', `Payment ${paymentId} not found`);
    return new X402Funding(payment, this.deps(), null);
  }

  private deps() {
    return { payments: this.payments, settlement: this.settlement, nonces: this.nonces };
  }
}
