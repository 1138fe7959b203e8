import { Logger } from '@nestjs/common';
import { computeAddress, JsonRpcProvider, SigningKey, Transaction } from 'ethers';
import { Clock, FaultInjector, newId } from '@app/common';
import { Queryable, TransactionRunner } from '@app/database';
import { ChainTxKind } from './chain-tx.entity';
import { ChainTxRow, ChainTxsRepository } from './chain-txs.repository';
import { FeeCache } from './fee-cache';
import { MinedReceipt, ReceiptWatcher } from './receipt-watcher';
import { ChainCall, signCall } from './signed-call';

export type { ChainCall } from './signed-call';

/**
 * Runs in the transaction that persists the signed transaction: the owner binds it to its rows
 * and answers whether they are still its own to pay (a claim token, a lease). False: nothing is
 * persisted, the nonce is not taken, and nothing is broadcast.
 */
export type Fence = (sql: Queryable, tx: ChainTxRow) => Promise<boolean>;

export type ChainOutcome =
  /** The receipt is absent only when the decision was recorded earlier and the node no longer answers it. */
  | { state: 'mined' | 'reverted'; tx: ChainTxRow; receipt?: MinedReceipt }
  /** Its nonce was used by another transaction: it can never land. */
  | { state: 'dropped'; tx: ChainTxRow }
  /** Not decided yet (sent, or sent again); the sweeper keeps resending it. */
  | { state: 'pending'; tx: ChainTxRow };

export interface ChainSenderOptions {
  provider: JsonRpcProvider;
  privateKey: string;
  chainId: number;
  transactions: TransactionRunner;
  repository: ChainTxsRepository;
  faults: FaultInjector;
  clock: Clock;
  pollMs: number;
  receiptTimeoutMs: number;
  /** A signed transaction still undecided this long after it was persisted is broadcast again by the sweeper. */
  resendAfterMs: number;
}

/** What a node answers when the transaction (or one with its nonce) is already in its pool or mined. */
const ALREADY_SENT =
  /already known|already imported|known transaction|nonce too low|NONCE_EXPIRED|already been used|transaction already exists/i;
/** Of those, the answers that say the nonce itself is used (by this transaction, or by one sent outside agora). */
const NONCE_USED = /nonce too low|NONCE_EXPIRED/i;

/**
 * The one on-chain sender of a hot wallet, for every transaction the platform sends
 * (settlement batches, withdrawals, refunds). Nonces come from Postgres (`chain_nonces`, taken
 * in the transaction that persists the signed transaction, never from `eth_getTransactionCount`
 * per send); fees from a per-block cache; the signature is local, so no pooled connection is
 * held across an RPC call. Broadcasts are concurrent and receipts come from one watcher.
 * A signed transaction is decided from the chain only: mined, reverted, or dropped when its nonce
 * was consumed by another; until then it is broadcast again, never replaced by a second signature.
 */
export class ChainSender {
  private readonly logger = new Logger(ChainSender.name);
  readonly address: string;
  readonly watcher: ReceiptWatcher;
  private readonly fees: FeeCache;
  private readonly key: SigningKey;
  private sequenceReady: Promise<void> | null = null;
  /** Receipt waits registered before each broadcast (a block scanned between the broadcast and a later registration would be missed). */
  private readonly expected = new Map<string, Promise<MinedReceipt | null>>();
  /** Decisions reached at broadcast (a nonce another transaction took), answered by `confirm` without waiting. */
  private readonly early = new Map<string, ChainOutcome>();

  constructor(private readonly o: ChainSenderOptions) {
    this.key = new SigningKey(o.privateKey);
    this.address = computeAddress(this.key.publicKey);
    this.watcher = new ReceiptWatcher(o.provider, o.pollMs, o.clock);
    this.fees = new FeeCache(o.provider, Math.max(o.pollMs, 1_000), o.clock);
  }

  /**
   * Signs `call` with the next nonce and persists it (with the owner's `fence`, in one Postgres
   * transaction), then broadcasts it. Answers the persisted transaction, or null when the fence
   * refused. A failed broadcast does not throw: the transaction is persisted, and `confirm`, or
   * the sweeper, sends it again.
   */
  async submit(call: ChainCall, fence?: Fence): Promise<ChainTxRow | null> {
    await this.ensureSequence();
    const fees = await this.fees.fees();
    const wallet = this.address.toLowerCase();
    const tx = await this.o.transactions
      .pipelined(async (sql) => {
        const nonce = await this.o.repository.takeNonce(sql, wallet);
        if (nonce === null) throw new Error(`no nonce sequence for ${wallet}`);
        const signed = signCall(this.key, this.o.chainId, call, nonce, fees);
        const row: ChainTxRow = {
          id: newId('ctx'),
          wallet,
          nonce,
          kind: call.kind,
          items: call.items ?? 1,
          txHash: signed.hash,
          signedTx: signed.raw,
          status: 'signed',
        };
        // Issued together (one round trip); the fence's answer is read before COMMIT goes out.
        const [ours] = await Promise.all([
          fence ? fence(sql, row) : true,
          this.o.repository.insert(sql, row, new Date(this.o.clock.nowMs() + this.o.resendAfterMs)),
        ]);
        if (!ours) throw FENCE_LOST;
        return row;
      })
      .catch((err) => {
        if (err === FENCE_LOST) return null;
        throw err;
      });
    if (!tx) return null;
    // Tests: the process dies here, persisted and never broadcast.
    this.o.faults.trip('chain.after-persist');
    this.expected.set(tx.id, this.watcher.wait(tx.txHash, this.o.receiptTimeoutMs));
    // Settlements only: a settlement wrongly taken for dropped (a lagging node behind a load balancer) is sent again and
    // refused on chain, and its payment finds the transaction that moved it; a transfer is left to the receipt wait.
    if ((await this.broadcast(tx)) === 'nonce-used' && tx.kind === 'settlement') await this.decideNow(tx);
    this.o.faults.trip('chain.after-broadcast');
    return tx;
  }

  /**
   * A transfer signed before this sender existed (a payout's `signed_tx` without a `chain_tx_id`)
   * becomes one of this wallet's persisted transactions, bound by the owner's `fence` in the same
   * Postgres transaction, so it is decided from the chain like any other and never signed again.
   */
  async adopt(signedTx: string, kind: ChainTxKind, fence: Fence): Promise<ChainTxRow | null> {
    const parsed = Transaction.from(signedTx);
    if (!parsed.from || parsed.from.toLowerCase() !== this.address.toLowerCase())
      throw new Error('the signed transaction is not from this hot wallet');
    const row: ChainTxRow = {
      id: newId('ctx'),
      wallet: parsed.from.toLowerCase(),
      nonce: BigInt(parsed.nonce),
      kind,
      items: 1,
      txHash: parsed.hash!.toLowerCase(),
      signedTx,
      status: 'signed',
    };
    return this.o.transactions
      .pipelined(async (sql) => {
        const [ours] = await Promise.all([fence(sql, row), this.o.repository.insert(sql, row, new Date())]);
        if (!ours) throw FENCE_LOST;
        return row;
      })
      .catch((err) => {
        if (err === FENCE_LOST) return null;
        throw err;
      });
  }

  /** Waits (bounded) for the chain's decision on a persisted transaction; sends it again if the wait ran out. */
  async confirm(tx: ChainTxRow, timeoutMs = this.o.receiptTimeoutMs): Promise<ChainOutcome> {
    const early = this.early.get(tx.id);
    this.early.delete(tx.id);
    if (early) return early;
    const expected = this.expected.get(tx.id);
    this.expected.delete(tx.id);
    const receipt = await (expected ?? this.watcher.wait(tx.txHash, timeoutMs));
    if (receipt) return this.decided(tx, receipt);
    return this.resolve(tx);
  }

  /**
   * Decides a persisted transaction from the chain (recovery, the sweeper): its receipt if mined;
   * a decision already recorded stands (a node that lags or lost the receipt does not undo it);
   * dropped only if its nonce was consumed and the node does not know the transaction itself;
   * else it is broadcast again and awaited briefly.
   */
  async resolve(txOrId: ChainTxRow | string): Promise<ChainOutcome> {
    const id = typeof txOrId === 'string' ? txOrId : txOrId.id;
    const tx = await this.o.repository.get(id);
    if (!tx) throw new Error(`chain transaction ${id} not found`);
    const receipt = await this.watcher.receipt(tx.txHash);
    if (receipt) return this.decided(tx, receipt);
    if (tx.status !== 'signed') return { state: tx.status, tx };
    const used = BigInt(await this.o.provider.send('eth_getTransactionCount', [this.address, 'latest']));
    if (used > tx.nonce) return this.consumed(tx, used);
    const waiting = this.watcher.wait(tx.txHash, Math.min(this.o.receiptTimeoutMs, 10_000));
    await this.broadcast(tx);
    const mined = await waiting;
    if (mined) return this.decided(tx, mined);
    await this.o.repository.postpone(tx.id, new Date(this.o.clock.nowMs() + this.o.resendAfterMs));
    return { state: 'pending', tx };
  }

  /** The chain's decision on this wallet's transaction `txHash`, as `resolve` decides it (`pending`: it may still land); null: not one of ours. */
  async decide(txHash: string): Promise<ChainOutcome['state'] | null> {
    const tx = await this.o.repository.byHash(txHash);
    return tx ? (await this.resolve(tx)).state : null;
  }

  /**
   * The wallet's nonce `tx.nonce` is consumed. Asked again (it may have been mined meanwhile), and
   * the transaction itself looked up (a node whose receipt index lags, or a pool, still knows it):
   * only when neither knows it is it dropped, and only if this call is the one that recorded it.
   */
  private async consumed(tx: ChainTxRow, used: bigint): Promise<ChainOutcome> {
    const [again, known] = await Promise.all([
      this.watcher.receipt(tx.txHash),
      this.o.provider.send('eth_getTransactionByHash', [tx.txHash]) as Promise<{ blockNumber?: string | null } | null>,
    ]);
    if (again) return this.decided(tx, again);
    // Known at all (mined on a backend whose receipts lag, or still in a pool): it may land; never signed again while it can.
    if (known) {
      await this.o.repository.postpone(tx.id, new Date(this.o.clock.nowMs() + this.o.resendAfterMs));
      return { state: 'pending', tx };
    }
    if (!(await this.o.repository.finish(tx.id, 'dropped', null))) {
      const now = (await this.o.repository.get(tx.id))!;
      return now.status === 'signed' ? { state: 'pending', tx: now } : { state: now.status, tx: now };
    }
    await this.o.repository.raiseNonce(tx.wallet, used);
    this.logger.warn({ txId: tx.id, nonce: tx.nonce.toString() }, 'nonce consumed by another transaction: dropped');
    return { state: 'dropped', tx: { ...tx, status: 'dropped' } };
  }

  /**
   * The node said "nonce too low" to a transaction just signed: if the chain's count is past its
   * nonce, another transaction used it (one sent from this wallet outside agora). Decided now, not
   * after the receipt wait: dropped raises the sequence past it, so the owner's next submit signs
   * with a free nonce at once. Anything else is left to `confirm` and the sweeper.
   */
  private async decideNow(tx: ChainTxRow): Promise<void> {
    try {
      const used = BigInt(await this.o.provider.send('eth_getTransactionCount', [this.address, 'latest']));
      if (used <= tx.nonce) return;
      const outcome = await this.consumed(tx, used);
      if (outcome.state === 'pending') return;
      this.expected.delete(tx.id);
      this.watcher.forget(tx.txHash);
      this.early.set(tx.id, outcome);
    } catch (err) {
      this.logger.warn({ txId: tx.id, err: (err as Error).message?.slice(0, 300) }, 'nonce check failed');
    }
  }

  /** Signed transactions the chain has not decided on by their resend time (for the sweeper). */
  due(limit = 100): Promise<string[]> {
    return this.o.repository.due(new Date(), limit);
  }

  /** Sends a persisted transaction to the node; a node that already has it (or its nonce: `nonce-used`) is fine. */
  private async broadcast(tx: ChainTxRow): Promise<'sent' | 'nonce-used' | 'failed'> {
    try {
      await this.o.provider.send('eth_sendRawTransaction', [tx.signedTx]);
      this.watcher.kick();
      return 'sent';
    } catch (err) {
      const message = `${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''} ${JSON.stringify((err as { error?: unknown }).error ?? '')}`;
      if (/fee|underpriced|base fee/i.test(message)) this.fees.invalidate();
      if (ALREADY_SENT.test(message)) {
        this.watcher.kick();
        return NONCE_USED.test(message) ? 'nonce-used' : 'sent';
      }
      // Persisted: the sweeper or confirm() sends it again; the chain decides.
      this.logger.warn({ txId: tx.id, err: message.slice(0, 300) }, 'broadcast failed; will resend');
      return 'failed';
    }
  }

  private async decided(tx: ChainTxRow, receipt: MinedReceipt): Promise<ChainOutcome> {
    const state = receipt.status === 1 ? 'mined' : 'reverted';
    await this.o.repository.finish(tx.id, state, receipt);
    return { state, tx: { ...tx, status: state }, receipt };
  }

  /**
   * Once per process: the wallet's nonce sequence exists and is not behind the chain, and every
   * transaction persisted and still undecided (a process that died between persisting and
   * broadcasting) is broadcast again first, so the nonces taken after it are not stuck behind a gap.
   */
  private ensureSequence(): Promise<void> {
    this.sequenceReady ??= (async () => {
      const pending = BigInt(await this.o.provider.send('eth_getTransactionCount', [this.address, 'pending']));
      await this.o.repository.raiseNonce(this.address.toLowerCase(), pending);
      for (const tx of await this.o.repository.open(this.address.toLowerCase()))
        if (tx.nonce >= pending) await this.broadcast(tx);
    })().catch((err) => {
      this.sequenceReady = null;
      throw err;
    });
    return this.sequenceReady;
  }
}

const FENCE_LOST = new Error('fence lost');
