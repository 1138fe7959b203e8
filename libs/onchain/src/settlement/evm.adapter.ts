import { Logger } from '@nestjs/common';
import { Contract, Interface, JsonRpcProvider } from 'ethers';
import { sameWallet, UnavailableException } from '@app/common';
import { AppConfig } from '@app/config';
import { ChainSender } from '../chain/chain-sender';
import { SettlementBatcher } from '../chain/settlement-batcher';
import { PayerHolds } from './payer-holds';
import { PaymentInvalid, PaymentReplayed, VerifiedPayment } from '@app/x402';
import {
  HeldPaymentRef,
  SettleRequest,
  SettlementAdapter,
  SettlementUndecided,
  TransferOutcome,
  TransferRequest,
} from './settlement.adapter';
import { carriesAuthorization, isCancellation, nonceSpentTopics } from './authorization-logs';

/** The parts of USDC (FiatToken v2) we read; the project's TestUSDC has the same interface. */
const USDC_ABI = [
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function balanceOf(address account) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
];
const TRANSFER_GAS = 100_000n;
/** A transfer whose nonce another transaction took is signed again at once, this many signatures in all per attempt. */
const TRANSFER_SIGNINGS = 3;
const LOG_WINDOW = 10_000;

/**
 * Settlement on an EVM chain. One hot wallet (RELAYER_PRIVATE_KEY) relays the authorizations
 * and, being the payTo address, pays withdrawals and refunds. Every transaction goes through the
 * one ChainSender (Postgres nonces, persisted before broadcast, one receipt watcher);
 * settlements through the SettlementBatcher (several per transaction when they arrive together).
 */
/** Holds of other calls whose authorization is checked on chain when a hold is refused (bounded work per call). */
const HOLD_RECHECK = 16;
/** How long a request waits for the node's reads before anything is written (preflight): past it, 503 and nothing charged. */
export const CHAIN_READ_TIMEOUT_MS = 3_000;
/** What a refusal for want of the node asks the client to wait (Retry-After, seconds). */
const NODE_RETRY_AFTER_S = 1;

export class EvmSettlementAdapter extends SettlementAdapter {
  readonly mode = 'evm' as const;
  private readonly logger = new Logger(EvmSettlementAdapter.name);
  private readonly token: Contract;
  private readonly transferAbi = new Interface(USDC_ABI);

  constructor(
    private readonly config: AppConfig,
    private readonly provider: JsonRpcProvider,
    readonly sender: ChainSender,
    private readonly batcher: SettlementBatcher,
    /** What the payer's calls in flight hold of its balance (null: the balance alone decides). */
    private readonly holds: PayerHolds | null = null,
    /** The bound on the node's reads a request waits for before its first write (preflight). */
    private readonly readTimeoutMs = CHAIN_READ_TIMEOUT_MS,
  ) {
    super();
    if (!sameWallet(sender.address, config.platformWallet)) {
      throw new Error(
        'In evm mode PLATFORM_WALLET must be the address of RELAYER_PRIVATE_KEY: one hot wallet receives payments and pays withdrawals',
      );
    }
    this.token = new Contract(config.usdcAddress!, USDC_ABI, provider);
  }

  /**
   * On the request path, before anything is written: whether the authorization is unused and the payer
   * can pay. The node's reads are bounded together by `readTimeoutMs`: a node that is slow, silent or
   * unreachable (or fails a read) is a 503 SERVICE_UNAVAILABLE with Retry-After, never a 500 after the
   * RPC timeout; nothing was written or held, so the same request can be sent again (as the facilitator's
   * verify that does not answer charges nothing).
   */
  async preflight(p: VerifiedPayment): Promise<void> {
    if (p.chainId !== this.config.evmChainId) {
      throw new PaymentInvalid('Payments on this network cannot be settled here', {
        reason: 'invalid_network',
      });
    }
    const deadline = performance.now() + this.readTimeoutMs;
    const [used, balance] = await this.read(
      Promise.all([
        this.token.authorizationState(p.payer, p.nonce) as Promise<boolean>,
        this.token.balanceOf(p.payer) as Promise<bigint>,
      ]),
      deadline,
    );
    if (used)
      throw new PaymentReplayed('This payment authorization has already been used on chain', {
        reason: 'duplicate_settlement',
      });
    // The balance less what the payer's other calls in flight hold must cover this one (held now in turn).
    if (balance < p.value || !(await this.held(p, balance, deadline)))
      throw new PaymentInvalid('The payer does not hold enough USDC', {
        reason: 'insufficient_funds',
      });
  }

  /**
   * Holds this call's amount beside the payer's other calls in flight. A call whose transfer is already
   * mined but not yet recorded is counted twice (gone from the balance, still held): when the hold is
   * refused, the holds of authorizations the chain says are used (at most HOLD_RECHECK) are dropped and
   * it is asked once more, so a payer with exactly enough for its parallel calls is never refused. A node
   * that cannot answer those reads in time refuses the call as unavailable, not as short of funds.
   */
  private async held(p: VerifiedPayment, balance: bigint, deadline: number): Promise<boolean> {
    if (this.holds === null || (await this.holds.hold(p, balance))) return true;
    const nonces = await this.holds.heldNonces(p, HOLD_RECHECK);
    const used = await this.read(
      Promise.all(nonces.map((n) => this.token.authorizationState(p.payer, n) as Promise<boolean>)),
      deadline,
    );
    const settled = nonces.filter((_, i) => used[i]);
    if (settled.length === 0) return false;
    for (const nonce of settled) this.holds.release({ ...p, nonce });
    return this.holds.hold(p, balance);
  }

  /** The node's answer by `deadline` (performance.now()), else UnavailableException (503, Retry-After); a late answer is ignored. */
  private async read<T>(call: Promise<T>, deadline: number): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no answer within ${this.readTimeoutMs} ms`)),
        Math.max(0, deadline - performance.now()),
      );
      timer.unref();
    });
    try {
      return await Promise.race([call, late]);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message?.slice(0, 300) }, 'chain node unavailable for a preflight: 503');
      throw new UnavailableException(
        'The chain node is not answering; nothing was charged. Send the same request again shortly',
        NODE_RETRY_AFTER_S,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  override releaseHold(p: HeldPaymentRef): void {
    this.holds?.release(p);
  }

  override chainSender(): ChainSender {
    return this.sender;
  }

  /**
   * A payment already bound to a transaction (an earlier attempt's) is decided from it first: one
   * that may still land is never doubled by a second (SettlementUndecided until the chain decides);
   * one mined that used the authorization is the settlement. Otherwise (reverted, dropped, or the
   * authorization refused in it) a new transaction carries it.
   */
  async settle(p: SettleRequest): Promise<{ txHash: string }> {
    // A node that cannot say now leaves it undecided too: that transaction may still land.
    const earlier = p.txHash
      ? await this.sender.decide(p.txHash).catch((err: unknown) => {
          throw new SettlementUndecided(p.txHash!, `settlement transaction ${p.txHash} not decided: ${String(err)}`);
        })
      : null;
    if (earlier === 'pending')
      throw new SettlementUndecided(p.txHash!, `settlement transaction ${p.txHash} not confirmed yet`);
    const moved = earlier === 'mined' ? await this.settlementOf(p) : null;
    return moved ? { txHash: moved } : this.batcher.settle(p);
  }

  async authorizationUsed(p: SettleRequest): Promise<boolean> {
    return this.token.authorizationState(p.payer, p.nonce) as Promise<boolean>;
  }

  /**
   * The transaction that moved this authorization's money to us, if one did: the one bound to the
   * payment first (one receipt), else the token's AuthorizationUsed log of its nonce, newest window
   * first and bounded (EVM_LOG_LOOKBACK_BLOCKS; providers refuse a search from block 0), checked to
   * carry its terms (`carriesAuthorization`). null: unused, cancelled, or used by another authorization
   * of the payer with the same nonce, which moved nothing to us. Used and not found or not readable: throws,
   * so no caller takes it for unused.
   */
  async settlementOf(p: SettleRequest): Promise<string | null> {
    if (!(await this.authorizationUsed(p))) return null;
    const token = this.config.usdcAddress!.toLowerCase();
    if (p.txHash) {
      const receipt = await this.provider.getTransactionReceipt(p.txHash);
      if (receipt && carriesAuthorization(receipt, token, p)) return p.txHash;
    }
    const head = await this.provider.getBlockNumber();
    const oldest = Math.max(0, head - this.config.evmLogLookbackBlocks);
    for (let to = head; to >= oldest; to -= LOG_WINDOW) {
      const logs = await this.provider.getLogs({
        address: token,
        topics: nonceSpentTopics(p),
        fromBlock: Math.max(oldest, to - LOG_WINDOW + 1),
        toBlock: to,
      });
      if (logs.length === 0) continue;
      if (isCancellation(logs[0])) return null; // the payer cancelled it: nothing moved
      const receipt = await this.provider.getTransactionReceipt(logs[0].transactionHash);
      if (!receipt) throw new Error(`the receipt of ${logs[0].transactionHash} is not readable now`);
      return carriesAuthorization(receipt, token, p) ? logs[0].transactionHash : null;
    }
    // Used, by a transaction older than the window: never "not moved" (that would release or resend it); retried later.
    throw new Error(
      `authorization ${p.nonce} of ${p.payer} was used, but no AuthorizationUsed log within ${this.config.evmLogLookbackBlocks} blocks`,
    );
  }

  /**
   * A transfer signed by an earlier attempt is decided from the chain first: mined or reverted is
   * final; still landable is `pending` (sent again, never signed twice); only when its nonce was
   * consumed by another transaction is a new one signed, under the payout's fence (at once when that
   * transaction was seen on chain: ChainSender's nonce conflicts).
   */
  async transfer(req: TransferRequest): Promise<TransferOutcome> {
    if (req.chainTxId) {
      const earlier = await this.sender.resolve(req.chainTxId);
      if (earlier.state === 'mined') return { kind: 'sent', txHash: earlier.tx.txHash };
      if (earlier.state === 'reverted') return { kind: 'reverted', txHash: earlier.tx.txHash };
      if (earlier.state === 'pending') return { kind: 'pending' };
    }
    const data = this.transferAbi.encodeFunctionData('transfer', [req.to, req.amount]);
    for (let signed = 1; ; signed++) {
      const tx = await this.sender.submit(
        { kind: 'transfer', to: this.config.usdcAddress!, data, gasLimit: TRANSFER_GAS },
        req.fence,
      );
      if (!tx) return { kind: 'fenced' };
      const outcome = await this.sender.confirm(tx);
      // Its hash, or that of the transaction that carried it (a wallet's "speed up" of it): paid, never signed again.
      if (outcome.state === 'mined') return { kind: 'sent', txHash: outcome.tx.txHash };
      if (outcome.state === 'reverted') return { kind: 'reverted', txHash: outcome.tx.txHash };
      // Its nonce was used by another transaction seen on chain (one sent from the hot wallet outside agora): this one can
      // never land, so the transfer is signed again at once with a free nonce, under the same fence.
      if (outcome.state !== 'dropped' || !outcome.by || signed >= TRANSFER_SIGNINGS) return { kind: 'pending' };
    }
  }

  /** Balance of the hot wallet, for reconciliation (I8) and operations. */
  async platformBalance(): Promise<bigint> {
    return this.token.balanceOf(this.sender.address) as Promise<bigint>;
  }
}
