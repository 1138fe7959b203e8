import { Logger } from '@nestjs/common';
import { id as eventTopic, Interface, Signature, zeroPadValue } from 'ethers';
import { Queryable } from '@app/database';
import { SettleRequest, SettlementUndecided } from '../settlement/settlement.adapter';
import { ChainSender } from './chain-sender';

const TOKEN = new Interface([
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
]);
const BATCHER = new Interface([
  'function settle(address token, (address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)[] auths)',
]);
const AUTHORIZATION_USED = eventTopic('AuthorizationUsed(address,bytes32)');

/** Gas limits: generous (unused gas is not paid for) so an authorization is never starved inside a batch. */
const SINGLE_GAS = 150_000n;
const BATCH_BASE_GAS = 60_000n;
const BATCH_ITEM_GAS = 110_000n;

/** In the sender's transaction: the payments of a batch get the hash of the transaction that carries them, before it is broadcast. */
export type BindSettlementHash = (sql: Queryable, paymentIds: string[], txHash: string) => Promise<unknown>;

/** A group whose transaction lost its nonce to another is sent again in a new one, this many times at most. */
const MAX_RESENDS = 3;

interface Queued {
  req: SettleRequest;
  /** When it was asked for (ms): a group under load gathers until its first has waited the window. */
  at: number;
  /** Times its transaction was dropped (its nonce used by a transaction sent outside agora). */
  resends: number;
  resolve: (r: { txHash: string }) => void;
  reject: (err: Error) => void;
}

/** A settlement that did not move the money: the payment records the failure and is retried (the retry asks the chain first). */
export class SettlementNotMinedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SettlementNotMinedError';
  }
}

/**
 * Settlements that arrive while the previous transaction is being persisted or mined go out
 * together (group commit; a settlement alone leaves at once, `gather` says how long a group waits). A group of
 * one calls the token directly; a larger group calls the project's SettlementBatcher, which
 * tries each authorization on its own. Which ones moved money is read from the token's
 * AuthorizationUsed logs in the receipt, so a bad authorization fails alone.
 */
export class SettlementBatcher {
  private readonly logger = new Logger(SettlementBatcher.name);
  private readonly queue: Queued[] = [];
  private flushing = false;
  /** Settlement transactions sent and not decided yet. */
  private inFlight = 0;
  /** The group gathering: woken once it holds `size`, or (`onDecision`) a transaction in flight is decided. */
  private waiting: { size: number; onDecision: boolean; resume: () => void } | null = null;
  /** Settlements in the last group sent: more than one means settlements arrive faster than they are sent. */
  private lastGroup = 0;
  /** When the settlements of the last second were asked for (from `first` on): the rate they arrive at. */
  private arrivals: number[] = [];
  private first = 0;

  constructor(
    private readonly sender: ChainSender,
    private readonly o: {
      token: string;
      batcher: string | null;
      maxBatch: number;
      /** How long a group may gather behind a transaction in flight (EVM_BATCH_WINDOW_MS; 0: never). */
      windowMs: number;
      /** Under load, a smaller group gathers until its first settlement has waited windowMs (EVM_BATCH_MIN; 1: never). */
      minBatch: number;
      bindHash: BindSettlementHash;
    },
  ) {}

  settle(req: SettleRequest): Promise<{ txHash: string }> {
    return new Promise((resolve, reject) => {
      // An authorization that cannot be encoded (a malformed signature) fails alone, before it can join a batch.
      try {
        TOKEN.encodeFunctionData('transferWithAuthorization', authTuple(req));
      } catch (err) {
        return reject(
          new SettlementNotMinedError(`the authorization cannot be encoded: ${(err as Error).message?.slice(0, 200)}`),
        );
      }
      const at = performance.now();
      this.arrived(at);
      this.queue.push({ req, at, resends: 0, resolve, reject });
      if (this.waiting && this.queue.length >= this.waiting.size) this.waiting.resume();
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.queue.length > 0) {
        await this.gather();
        const group = this.queue.splice(0, this.o.batcher ? this.o.maxBatch : 1);
        this.lastGroup = group.length;
        try {
          const paymentIds = group.map((q) => q.req.paymentId).filter((id): id is string => !!id);
          // No fence: an authorization can move money once, whoever relays it, so a second send is refused on chain.
          const tx = await this.sender.submit(this.call(group), async (sql, t) => {
            await this.o.bindHash(sql, paymentIds, t.txHash);
            return true;
          });
          // Persisted and broadcast: the next group gathers while this one is mined.
          this.inFlight++;
          void this.finish(group, tx!).finally(() => {
            this.inFlight--;
            if (this.waiting?.onDecision) this.waiting.resume();
          });
        } catch (err) {
          for (const q of group) q.reject(err as Error);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  /**
   * While a settlement transaction is in flight, the next group gathers until one in flight is
   * decided, the group is full, or the window ends: under load batches grow with the time a
   * transaction takes to be mined (fewer transactions, less gas per settlement). Then, under load (a
   * transaction in flight, or the last group not alone), a group below `minBatch` gathers until it
   * reaches it or the window ends, if the last second's rate says another settlement comes within
   * what is left of it (a burst that came together has nobody to wait for). The window counts from
   * the group's first settlement: none waits longer than that for company. A settlement alone, with
   * nothing in flight and none before it, leaves at once (with those asked for in the same turn of
   * the event loop).
   */
  private async gather(): Promise<void> {
    if (!this.o.batcher || this.o.windowMs <= 0) return;
    const left = () => this.o.windowMs - (performance.now() - this.queue[0].at);
    if (this.inFlight > 0 && this.queue.length < this.o.maxBatch && left() > 0)
      await this.until(this.o.maxBatch, true, left());
    const busy = this.inFlight > 0 || this.lastGroup > 1;
    const ms = left();
    const expected = ((this.arrivals.length - this.first) * ms) / 1_000;
    if (busy && this.queue.length < this.o.minBatch && ms > 0 && expected >= 1)
      await this.until(this.o.minBatch, false, ms);
  }

  /** Records a settlement asked for at `at`, forgetting those more than a second before it. */
  private arrived(at: number): void {
    this.arrivals.push(at);
    while (this.arrivals[this.first] < at - 1_000) this.first++;
    if (this.first > 1_024) {
      this.arrivals = this.arrivals.slice(this.first);
      this.first = 0;
    }
  }

  /** Resolves once the queue holds `size`, `ms` have passed, or (`onDecision`) a transaction in flight is decided. */
  private until(size: number, onDecision: boolean, ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => this.waiting?.resume(), ms);
      this.waiting = {
        size,
        onDecision,
        resume: () => {
          clearTimeout(timer);
          this.waiting = null;
          resolve();
        },
      };
    });
  }

  private call(group: Queued[]) {
    if (group.length === 1) {
      return {
        kind: 'settlement' as const,
        to: this.o.token,
        gasLimit: SINGLE_GAS,
        data: TOKEN.encodeFunctionData('transferWithAuthorization', authTuple(group[0].req)),
      };
    }
    const auths = group.map(({ req }) => authTuple(req));
    return {
      kind: 'settlement' as const,
      to: this.o.batcher!,
      items: group.length,
      gasLimit: BATCH_BASE_GAS + BATCH_ITEM_GAS * BigInt(group.length),
      data: BATCHER.encodeFunctionData('settle', [this.o.token, auths]),
    };
  }

  /** Each settlement of the group learns from the receipt whether its authorization was used by this transaction. */
  private async finish(group: Queued[], tx: NonNullable<Awaited<ReturnType<ChainSender['submit']>>>): Promise<void> {
    try {
      const outcome = await this.sender.confirm(tx);
      // Its nonce was used by another transaction: its authorizations go out again (one that did move money after all is refused on chain).
      if (outcome.state === 'dropped') {
        const again = group.filter((q) => q.resends < MAX_RESENDS);
        const err = new SettlementNotMinedError(`settlement transaction ${tx.txHash} dropped ${MAX_RESENDS + 1} times`);
        for (const q of group) if (q.resends >= MAX_RESENDS) q.reject(err);
        this.queue.unshift(...again.map((q) => ({ ...q, resends: q.resends + 1 })));
        if (again.length > 0 && !this.flushing) void this.flush();
        return;
      }
      // Sent and not decided within the wait (a node that stalls, a busy chain): it may still land.
      if (outcome.state === 'pending') {
        const err = new SettlementUndecided(tx.txHash, `settlement transaction ${tx.txHash} not confirmed yet`);
        for (const q of group) q.reject(err);
        return;
      }
      // A decision recorded earlier whose receipt the node no longer answers: settlement recovery reads each authorization from the chain.
      if (outcome.state !== 'mined' || !outcome.receipt) {
        const err = new SettlementNotMinedError(`settlement transaction ${tx.txHash} ${outcome.state}`);
        for (const q of group) q.reject(err);
        return;
      }
      const token = this.o.token.toLowerCase();
      const used = new Set(
        outcome.receipt.logs
          .filter((l) => l.address === token && l.topics[0] === AUTHORIZATION_USED)
          .map((l) => `${l.topics[1]}:${l.topics[2]}`),
      );
      for (const q of group) {
        const key = `${zeroPadValue(q.req.payer.toLowerCase(), 32)}:${q.req.nonce.toLowerCase()}`;
        if (used.has(key)) q.resolve({ txHash: tx.txHash });
        else q.reject(new SettlementNotMinedError(`the authorization was refused on chain in ${tx.txHash}`));
      }
    } catch (err) {
      this.logger.warn({ txId: tx.id, err: (err as Error).message }, 'settlement confirmation failed');
      // Persisted and broadcast, its receipt unread: its outcome is unknown, not a failure.
      const undecided = new SettlementUndecided(
        tx.txHash,
        `settlement transaction ${tx.txHash} could not be confirmed: ${(err as Error).message?.slice(0, 200)}`,
      );
      for (const q of group) q.reject(undecided);
    }
  }
}

function authTuple(p: SettleRequest) {
  const sig = Signature.from(p.signature);
  return [p.payer, p.payTo, p.value, p.validAfter, p.validBefore, p.nonce, sig.v, sig.r, sig.s];
}
