import { Injectable } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { WorkPartiesRepository } from '@app/execution';
import { Lane } from '@app/queues';

/** How long a party's paid record is taken as read (it changes with money, slowly). */
const RECORD_TTL_MS = 60_000;
/** Records kept at most; past it the memory starts over (each is read again at its next job). */
const RECORD_MAX = 10_000;
/** The pool of parties with no paid record. */
const POOL: Pick<Lane, 'scope' | 'key'> = { scope: 'pool', key: 'unfunded' };
/**
 * An owner whose agents held slots long lately (STALL_RUNS runs in STALL_WINDOW_MS that took STALL_MIN_MS or
 * more, or half the run timeout if less, whatever their outcome: a 4xx or a price-0 answer just under any
 * timeout threshold holds a slot as well) takes its place in the pool, whatever its paid record, for STALL_TTL_MS.
 */
const STALL_MIN_MS = 5_000;
const STALL_WINDOW_MS = 600_000;
const STALL_RUNS = 2;
const STALL_TTL_MS = 10_000;
/** The pool's size in shares: 3 of 4 of one worker's slots by default (12 of 16 runs, 24 of 32 deliveries); the rest only parties with a paid record take. */
const POOL_SHARES = 3;

/**
 * The levels of a job's turn after its agent or host (issue 52; docs/architecture.md, "Fair
 * shares"): its owner and payer (a run) or its party (a delivery: a callback's payer, a webhook's
 * agent owner), each at most the party share at once, twice it for a party with a paid record
 * (WORKER_FUNDED_VOLUME_MICRO of agent fees charged with other wallets); the jobs of parties with
 * none (fresh wallets, which cost nothing) share one pool of three shares. The pool follows the
 * party that decides how long a job takes: a run's owner (its agent answers or not), a delivery's
 * party (its URL). None when the party share is 0.
 */
@Injectable()
export class WorkShares {
  private readonly records = new Map<string, { funded: boolean; until: number }>();
  private readonly stalls = new Map<string, { stalling: boolean; until: number }>();

  constructor(
    private readonly parties: WorkPartiesRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async ofRun(executionId: string): Promise<Lane[]> {
    const share = this.config.workerPartyConcurrency;
    if (share <= 0) return [];
    const p = await this.parties.ofRun(executionId);
    if (!p) return [];
    const [paidOwner, payer] = await Promise.all([this.funded('owner', p.owner), this.funded('payer', p.payer)]);
    // A paid record buys a larger share for agents that answer: silent ones (a bought record, then agents that
    // hold slots until the timeout) send their owner back to the pool after their first stalled runs.
    const owner = paidOwner && !(await this.stalling(p.owner));
    return [
      { scope: 'owner', key: p.owner, limit: owner ? 2 * share : share },
      { scope: 'payer', key: p.payer, limit: payer ? 2 * share : share },
      ...(owner ? [] : [{ ...POOL, limit: POOL_SHARES * share }]),
    ];
  }

  async ofDelivery(deliveryId: string): Promise<Lane[]> {
    const share = this.config.webhookPartyConcurrency;
    if (share <= 0) return [];
    const p = await this.parties.ofDelivery(deliveryId);
    if (!p) return [];
    const scope = p.kind === 'callback' ? 'payer' : 'owner';
    const funded = await this.funded(scope, p.wallet);
    return [
      { scope, key: p.wallet, limit: funded ? 2 * share : share },
      ...(funded ? [] : [{ ...POOL, limit: POOL_SHARES * share }]),
    ];
  }

  private async stalling(owner: string): Promise<boolean> {
    const now = this.clock.nowMs();
    const known = this.stalls.get(owner);
    if (known && known.until > now) return known.stalling;
    const minMs = Math.min(STALL_MIN_MS, Math.floor(this.config.executionTimeoutMs / 2));
    const stalling = await this.parties.stalling(owner, { withinMs: STALL_WINDOW_MS, minMs, atLeast: STALL_RUNS });
    if (this.stalls.size >= RECORD_MAX) this.stalls.clear();
    this.stalls.set(owner, { stalling, until: now + STALL_TTL_MS });
    return stalling;
  }

  /** Whether a party has a paid record: as a payer, agent fees paid to other wallets' agents; as an owner, paid to its agents by other wallets. */
  private async funded(as: 'owner' | 'payer', wallet: string): Promise<boolean> {
    const key = `${as}:${wallet}`;
    const now = this.clock.nowMs();
    const known = this.records.get(key);
    if (known && known.until > now) return known.funded;
    const paid = as === 'owner' ? await this.parties.paidTo(wallet) : await this.parties.paidBy(wallet);
    const funded = paid >= BigInt(this.config.workerFundedVolumeMicro);
    if (this.records.size >= RECORD_MAX) this.records.clear();
    this.records.set(key, { funded, until: now + RECORD_TTL_MS });
    return funded;
  }
}
