import { Injectable } from '@nestjs/common';
import { AppException } from '@app/common';
import { PaymentsRepository } from '@app/payments';
import { PresentedPayment, X402Service } from '@app/x402';
import { ChainTokenPayload } from './chain-tokens';
import { ChainNodeRow, ChainRow, ChainsRepository } from './chains.repository';

/** Why a chain token does not open a read (`details.reason` of the 403). */
export type ChainReadRefusal = 'holder_ended' | 'root' | 'outside_subtree';

const refuse = (reason: ChainReadRefusal) =>
  new AppException(
    'FORBIDDEN',
    reason === 'holder_ended'
      ? "This chain token's execution has ended: its token reads nothing more"
      : reason === 'root'
        ? "A chain's root execution is read with the payment that opened the chain, not with a chain token"
        : "A chain token reads only its holder's execution and the calls below it",
    { reason },
  );

/**
 * What a chain token lets its holder read (docs/chains.md, "Reads"). The holder of a token is the
 * execution named by its `ptx`: the one the platform called with it (the callee's token) or whose
 * calls it refreshes (a `childToken`), i.e. the chain node with that execution id. Its subtree is
 * that node and every node whose parent chain leads to it. A token reads the executions of its
 * holder's subtree, the root's excepted (the root's output is the paying client's), and only while
 * the holder's node runs. The paying client (the root's payment header) reads the whole chain.
 */
@Injectable()
export class ChainReadScope {
  constructor(
    private readonly repo: ChainsRepository,
    private readonly payments: PaymentsRepository,
  ) {}

  /** Whether `payment` is the header that paid for `chain` (the root's cost and the budget). */
  async paidBy(chain: Pick<ChainRow, 'paymentId'>, payment: PresentedPayment | null): Promise<boolean> {
    if (payment === null) return false;
    const row = await this.payments.get(chain.paymentId);
    return row !== null && row.headerHash === X402Service.hashHeader(payment.value);
  }

  /** Whether `payment` paid for the chain `chainId` (false when no such chain). */
  async paidChain(chainId: string, payment: PresentedPayment | null): Promise<boolean> {
    if (payment === null) return false;
    const chain = await this.repo.find(chainId);
    return chain !== null && (await this.paidBy(chain, payment));
  }

  /** FORBIDDEN unless the token's holder still runs and the execution is in its subtree (not the root). */
  async assertReadable(claims: ChainTokenPayload, execution: { id: string; chainId: string | null }): Promise<void> {
    if (execution.chainId !== claims.cid) throw refuse('outside_subtree');
    const { holderStatus, depth, inSubtree } = await this.repo.lineage(claims.cid, claims.ptx, execution.id);
    if (holderStatus !== 'running') throw refuse('holder_ended');
    if (depth === 0) throw refuse('root');
    if (!inSubtree) throw refuse('outside_subtree');
  }

  /**
   * The executions of `nodes` (one chain's) the token's holder may read: its subtree, the root
   * excepted. FORBIDDEN when the token is another chain's or its holder's node has ended.
   */
  readable(claims: ChainTokenPayload, chainId: string, nodes: ChainNodeRow[]): Set<string> {
    const holder = nodes.find((n) => n.executionId === claims.ptx);
    if (claims.cid !== chainId || !holder) throw refuse('outside_subtree');
    if (holder.status !== 'running') throw refuse('holder_ended');
    const below = new Map<string, string[]>();
    for (const n of nodes)
      if (n.parentExecutionId)
        below.set(n.parentExecutionId, [...(below.get(n.parentExecutionId) ?? []), n.executionId]);
    const readable = new Set<string>();
    for (let queue = [holder.executionId]; queue.length > 0;) {
      const id = queue.pop()!;
      readable.add(id);
      queue = queue.concat(below.get(id) ?? []);
    }
    const root = nodes.find((n) => n.depth === 0);
    if (root) readable.delete(root.executionId);
    return readable;
  }
}
