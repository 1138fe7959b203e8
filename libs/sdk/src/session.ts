import { AgoraError, ValidationError } from './errors';
import { formatMicros, toMicros } from './money';
import type { Chain, ExecuteOptions, ExecuteResult } from './execute-types';
import type { DiscoveryResource } from './resources';

/** What a session needs of its client (AgoraClient). */
export interface SessionClient {
  execute(o: ExecuteOptions): Promise<ExecuteResult>;
  closeChain(chainId: string, chainToken: string): Promise<Chain>;
  readonly discovery: Pick<DiscoveryResource, 'chain'>;
}

export interface SessionOptions {
  /** USDC prepaid, beside the first call's price, for the calls after it; what is left is refunded. */
  budget: string;
  /** How deep the agents called may call in turn (0-5; default the first agent's own limit). */
  maxDepth?: number;
  /**
   * When the chain closed under the session (it was left unused longer than its token lives, 30 s by
   * default, or reached its time limit, 300 s), the next call opens a new one (a new payment of its
   * price plus `budget`; the old chain's rest is refunded). Default true; false: the call fails.
   */
  reopen?: boolean;
}

/** A call made in a session: the first opens the chain (and pays), the others spend its budget. */
export type SessionCall = Pick<ExecuteOptions, 'targetAgentId' | 'capabilityId' | 'input' | 'callbackUrl'>;

/** One chain the session opened, as it ended. */
export interface SessionChain {
  chainId: string;
  /** What the x402 payment that opened it carried (the first call's price plus the budget). */
  paid: string;
  /** What its calls cost (the first included). */
  spent: string;
  /** What the platform refunds of it (the budget not spent); null if it had not closed when asked. */
  refunded: string | null;
  calls: number;
}

export interface SessionSummary {
  chains: SessionChain[];
  paid: string;
  spent: string;
  /** Of the chains closed so far; paid = spent + refunded once `pending` is 0. */
  refunded: string;
  /** Chains not closed yet when asked (their refund comes when they close, at their token's expiry). */
  pending: number;
  calls: number;
}

type ChainView = { chainId: string; remainingBudget: string; childToken?: string };
type Open = {
  chainId: string;
  token: string | null;
  paid: bigint;
  calls: number;
  header: ExecuteResult['payment'];
};

/** Codes that say the session's chain can take no more calls: it closed, or its token lapsed. */
const CLOSED = new Set(['CHAIN_NOT_FOUND', 'CHAIN_TOKEN_EXPIRED', 'CHAIN_TIMEOUT']);

/**
 * Pay once, call many: the first call opens an execution chain paid with one x402 payment (its
 * price plus `budget`), every later call spends that budget with the token the previous answer
 * handed back (no payment, no settlement of its own), and `close()` gives the token up so the
 * platform refunds what is left at once and reports what was spent and refunded.
 */
export class AgoraSession {
  private current: Open | null = null;
  private readonly ended: Open[] = [];
  /** The call opening a chain, while it runs: calls made meanwhile wait for it rather than open another. */
  private opening: Promise<unknown> | null = null;

  constructor(
    private readonly client: SessionClient,
    private readonly options: SessionOptions,
  ) {
    if (toMicros(options.budget) <= 0n)
      throw new ValidationError('VALIDATION_ERROR', 'A session needs a budget above 0', 0);
  }

  /** The chain this session spends now (null before the first call). */
  get chainId(): string | null {
    return this.current?.chainId ?? null;
  }

  /** Runs a capability: the first call (or the first after the chain closed) pays; the others spend the budget. */
  async execute(call: SessionCall): Promise<ExecuteResult> {
    while (this.opening) await this.opening.catch(() => undefined);
    if (this.current?.token) {
      try {
        return this.keep(await this.client.execute({ ...call, chainToken: this.current.token }));
      } catch (err) {
        if (!(err instanceof AgoraError && CLOSED.has(err.code)) || this.options.reopen === false) throw err;
        this.ended.push(this.current);
        this.current = null;
      }
    }
    const opening = this.open(call);
    this.opening = opening;
    try {
      return await opening;
    } finally {
      if (this.opening === opening) this.opening = null;
    }
  }

  private async open(call: SessionCall): Promise<ExecuteResult> {
    let first: ExecuteResult;
    try {
      first = await this.client.execute({
        ...call,
        chain: {
          budget: this.options.budget,
          ...(this.options.maxDepth === undefined ? {} : { maxDepth: this.options.maxDepth }),
        },
      });
    } catch (err) {
      // A root that failed still opened (and paid for) a chain: it is refunded but the platform fee, and reported.
      const chainId =
        err instanceof AgoraError ? (err.details?.chain as { chainId?: string } | undefined)?.chainId : undefined;
      if (chainId && err instanceof AgoraError)
        this.ended.push({
          chainId,
          token: null,
          paid: toMicros(err.payment?.amount ?? '0'),
          calls: 1,
          header: (err.payment?.header ?? null) as Open['header'],
        });
      throw err;
    }
    const chain = (first as { chain?: ChainView }).chain!;
    this.current = {
      chainId: chain.chainId,
      token: chain.childToken ?? null,
      paid: toMicros(first.paid ?? '0'),
      calls: 1,
      header: first.payment,
    };
    return first;
  }

  /**
   * Ends the session: its chain is closed (the latest token given up; the unspent budget refunded
   * at once), and what every chain it opened was paid, spent and refunded. A chain whose token had
   * already lapsed closes on its own; it is read with the payment that opened it.
   */
  async close(): Promise<SessionSummary> {
    if (this.current) this.ended.push(this.current);
    this.current = null;
    const chains = await Promise.all(this.ended.map((c) => this.summaryOf(c)));
    const sum = (f: (c: SessionChain) => string | null) =>
      formatMicros(chains.reduce((s, c) => s + toMicros(f(c) ?? '0'), 0n));
    return {
      chains,
      paid: sum((c) => c.paid),
      spent: sum((c) => c.spent),
      refunded: sum((c) => c.refunded),
      pending: chains.filter((c) => c.refunded === null).length,
      calls: chains.reduce((n, c) => n + c.calls, 0),
    };
  }

  private keep(result: ExecuteResult): ExecuteResult {
    const chain = (result as { chain?: ChainView }).chain;
    this.current!.calls += 1;
    if (chain?.childToken) this.current!.token = chain.childToken;
    return result;
  }

  private async summaryOf(c: Open): Promise<SessionChain> {
    const closed = c.token ? await this.client.closeChain(c.chainId, c.token).catch(() => null) : null;
    c.token = null; // given up (or lapsed): never sent again
    const chain = closed ?? ((await this.client.discovery.chain(c.chainId)) as Chain);
    // The client's spend caps keep counting what was signed: a refund is the server's word, not money the SDK saw arrive.
    const refunded = chain.refund?.amount ?? (chain.completedAt ? '0.000000' : null);
    return { chainId: c.chainId, paid: formatMicros(c.paid), spent: chain.totalCost, refunded, calls: c.calls };
  }
}
