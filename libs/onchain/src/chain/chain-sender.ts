import { Logger } from '@nestjs/common';
import { computeAddress, JsonRpcProvider, SigningKey, Transaction } from 'ethers';
import { Clock, FaultInjector, newId } from '@app/common';
import { Queryable, TransactionRunner } from '@app/database';
import { ChainTxKind } from './chain-tx.entity';
import { ChainTxRow, ChainTxsRepository } from './chain-txs.repository';
import { FeeCache } from './fee-cache';
import { NonceConflictWatch } from './nonce-conflict';
import { samePayment } from './own-payment';
import { MinedReceipt, ReceiptWatcher } from './receipt-watcher';
import { classifySendError } from './send-errors';
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
  /** Its nonce was used by another transaction: it can never land. `by`: that transaction, when it was seen on chain. */
  | { state: 'dropped'; tx: ChainTxRow; by?: string }
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

/**
 * The one on-chain sender of a hot wallet, for every transaction the platform sends (settlement batches, withdrawals,
 * refunds). Nonces come from Postgres (`chain_nonces`, taken in the transaction that persists the signed transaction,
 * never from `eth_getTransactionCount` per send); fees from a per-block cache; the signature is local, so no pooled
 * connection is held across an RPC call. Broadcasts are concurrent and receipts come from one watcher. A signed
 * transaction is decided from the chain only: mined, reverted, or dropped when its nonce was consumed by another;
 * until then it is broadcast again, never replaced by a second signature.
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
  /** Refused for a nonce another transaction holds, followed until decided (null: left to the receipt wait). */
  private readonly conflicts = new Map<string, Promise<ChainOutcome | null>>();
  private readonly nonces: NonceConflictWatch;

  constructor(private readonly o: ChainSenderOptions) {
    this.key = new SigningKey(o.privateKey);
    this.address = computeAddress(this.key.publicKey);
    this.watcher = new ReceiptWatcher(o.provider, o.pollMs, o.clock);
    this.fees = new FeeCache(o.provider, Math.max(o.pollMs, 1_000), o.clock);
    this.nonces = new NonceConflictWatch({ ...o, watcher: this.watcher, address: this.address });
  }

  /**
   * Signs `call` with the next nonce and persists it (with the owner's `fence`, in one Postgres transaction), then
   * broadcasts it. Answers the persisted transaction, or null when the fence refused. A failed broadcast does not throw:
   * the transaction is persisted, and `confirm`, or the sweeper, sends it again.
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
    if ((await this.broadcast(tx)) === 'conflict')
      this.conflicts.set(tx.id, this.afterConflict(tx, this.o.receiptTimeoutMs));
    this.o.faults.trip('chain.after-broadcast');
    return tx;
  }

  /**
   * A transfer signed before this sender existed (a payout's `signed_tx` without a `chain_tx_id`) becomes one of this
   * wallet's persisted transactions, bound by the owner's `fence` in the same Postgres transaction, so it is decided
   * from the chain like any other and never signed again.
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
    const decided = await this.conflicts.get(tx.id);
    this.conflicts.delete(tx.id);
    const expected = this.expected.get(tx.id);
    this.expected.delete(tx.id);
    if (decided) return this.forget(tx, decided);
    const receipt = await (expected ?? this.watcher.wait(tx.txHash, timeoutMs));
    if (receipt) return this.decided(tx, receipt);
    return this.resolve(tx);
  }

  /**
   * Decides a persisted transaction from the chain (recovery, the sweeper): its receipt if mined; a decision recorded
   * stands (a node that lags or lost the receipt does not undo it); a consumed nonce as `consumed` decides; else sent again.
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
    const wait = Math.min(this.o.receiptTimeoutMs, 10_000);
    const waiting = this.watcher.wait(tx.txHash, wait);
    const decided = (await this.broadcast(tx)) === 'conflict' ? await this.afterConflict(tx, wait) : null;
    if (decided) return this.forget(tx, decided);
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
   * The wallet's nonce `tx.nonce` is consumed. Unless the transaction that used it was seen (`by`), asked again (it may
   * have been mined meanwhile) and looked up (a node whose receipt index lags, or a pool, still knows it): only when
   * neither knows it is it dropped, and only by the call that records it. A transfer is dropped only when `by` (else
   * the block's) is found and is not its payment (own-payment.ts); when it is, that one is the transfer's transaction;
   * not found or not told: postponed. The sequence is raised past the count (with `by`, the pending count).
   */
  private async consumed(tx: ChainTxRow, used: bigint, by?: string): Promise<ChainOutcome> {
    const [again, known] = by
      ? [null, null]
      : await Promise.all([
          this.watcher.receipt(tx.txHash),
          this.o.provider.send('eth_getTransactionByHash', [tx.txHash]) as Promise<unknown>,
        ]);
    if (again) return this.decided(tx, again);
    const payment = tx.kind === 'transfer' && !known;
    if (payment) by ??= (await this.nonces.holderNow(tx.nonce)) ?? undefined;
    const paid = payment ? await samePayment(this.o.provider, this.watcher, tx, by) : 'other';
    if (paid && paid !== 'other') return this.decided({ ...tx, txHash: by! }, paid);
    // Known at all (mined on a backend whose receipts lag, or still in a pool): it may land; never signed again while it can.
    if (known || !paid) {
      await this.o.repository.postpone(tx.id, new Date(this.o.clock.nowMs() + this.o.resendAfterMs));
      return { state: 'pending', tx };
    }
    if (!(await this.o.repository.finish(tx.id, 'dropped', null))) {
      const now = (await this.o.repository.get(tx.id))!;
      return now.status === 'signed' ? { state: 'pending', tx: now } : { state: now.status, tx: now };
    }
    await this.o.repository.raiseNonce(tx.wallet, by ? await this.nonces.count('pending') : used);
    this.logger.warn({ txId: tx.id, nonce: tx.nonce.toString(), by }, 'nonce consumed by another transaction: dropped');
    return { state: 'dropped', tx: { ...tx, status: 'dropped' }, ...(by ? { by } : {}) };
  }

  /**
   * Refused for a nonce another transaction holds, mined ("nonce too low") or pooled ("replacement transaction
   * underpriced"): followed at the block rate (NonceConflictWatch). Once the transaction that used the nonce is seen on
   * chain (proof this one never lands), decided as `consumed` decides (dropped: the owner signs its call again). Not
   * seen: a settlement is decided as `resolve` decides (a wrong drop is refused on chain), a transfer waits.
   */
  private async afterConflict(tx: ChainTxRow, timeoutMs: number): Promise<ChainOutcome | null> {
    this.logger.warn({ txId: tx.id, nonce: tx.nonce.toString() }, 'nonce held by another transaction; following it');
    try {
      const end = await this.nonces.watch(tx, timeoutMs, async () => (await this.broadcast(tx)) === 'sent');
      if (end.kind === 'mined') return await this.decided(tx, end.receipt);
      if (end.kind !== 'taken' || end.by === tx.txHash || (!end.by && tx.kind !== 'settlement')) return null;
      const outcome = await this.consumed(tx, end.used, end.by ?? undefined);
      return outcome.state === 'pending' ? null : outcome;
    } catch (err) {
      this.logger.warn({ txId: tx.id, err: (err as Error).message?.slice(0, 300) }, 'nonce check failed');
      return null;
    }
  }

  /** Signed transactions the chain has not decided on by their resend time (for the sweeper). */
  due(limit = 100): Promise<string[]> {
    return this.o.repository.due(new Date(), limit);
  }

  /**
   * Sends it (send-errors.ts reads a refusal): `sent` also for "already known" (this very one: waited for, never signed
   * again); `conflict`: another transaction holds its nonce; else `failed` (sent again later; the chain decides).
   */
  private async broadcast(tx: ChainTxRow): Promise<'sent' | 'conflict' | 'failed'> {
    try {
      await this.o.provider.send('eth_sendRawTransaction', [tx.signedTx]);
      this.watcher.kick();
      return 'sent';
    } catch (err) {
      const refusal = classifySendError(err);
      if (refusal === 'fee' || refusal === 'nonce-conflict') this.fees.invalidate();
      if (refusal === 'known' || refusal === 'nonce-conflict') this.watcher.kick();
      if (refusal === 'known') return 'sent';
      if (refusal === 'nonce-conflict') return 'conflict';
      const message = `${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? ''}`;
      this.logger.warn({ txId: tx.id, err: message.slice(0, 300) }, 'broadcast failed; will resend');
      return 'failed';
    }
  }

  private forget(tx: ChainTxRow, outcome: ChainOutcome): ChainOutcome {
    this.watcher.forget(tx.txHash);
    return outcome;
  }

  private async decided(tx: ChainTxRow, receipt: MinedReceipt): Promise<ChainOutcome> {
    const state = receipt.status === 1 ? 'mined' : 'reverted';
    await this.o.repository.finish(tx.id, state, receipt, tx.txHash);
    return { state, tx: { ...tx, status: state }, receipt };
  }

  /**
   * Once per process: the wallet's nonce sequence exists and is not behind the chain, and every transaction persisted
   * and undecided (its process died before broadcasting) is broadcast again first: no nonce after it stuck behind a gap.
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
