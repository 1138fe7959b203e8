import { Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics } from '@app/metrics';

/**
 * Moves a row's lease from `from` to `to`, only while it is still `from` (this process still holds
 * it): false once another process took it over or the work ended (the row moved on).
 */
export type LeaseRenewal = (from: Date, to: Date) => Promise<boolean>;

/**
 * Hands leases to `work`; every lease taken through `hold` is renewed until `work` ends, about each
 * time a third of it passed, by `leaseMs` (SETTLEMENT_LEASE_MS unless given; a payout's claim: PAYOUT_CLAIM_MS).
 */
export type HoldLease = (lease: Date, renew: LeaseRenewal, leaseMs?: number) => void;

/** Failed renewals remembered (the newest): a lease lapses within a few beats, then the sweeper may take it over. */
const UNSURE_KEPT = 4;

interface Held {
  lease: Date;
  renew: LeaseRenewal;
  leaseMs: number;
  /** The leases renewals that errored tried to write (newest last): one may have committed, its reply lost. */
  unsure: Date[];
  busy: boolean;
  dropped: boolean;
}

/**
 * A lease (SETTLEMENT_LEASE_MS) marks a row as this process's work for a short while; the sweeper
 * takes over one that lapsed, because its process died. A live process renews the leases it holds
 * every third of a lease, so slow work (a settlement waiting out its receipt) is never taken over
 * while its process lives, and a dead process's work is due again one lease after its last renewal.
 * Renewals are conditional on the lease still being the one this process wrote: a lease that was
 * taken over is dropped, never taken back. A renewal that fails (Postgres away) is tried again at the
 * next beat; the work itself decides what to do about its own failures. A failed renewal may have
 * committed with its reply lost: the next one then also tries from the leases the failed ones wrote, so
 * this process does not drop a lease it still holds. A lease lost while its work runs is logged and counted
 * (`agora_leases_lost_total`).
 */
@Injectable()
export class LeaseHeartbeat implements OnModuleDestroy {
  private readonly logger = new Logger(LeaseHeartbeat.name);
  private readonly held = new Set<Held>();
  private timer?: NodeJS.Timeout;
  private everyMs = 0;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Runs `work`; the leases it takes through `hold` are renewed while it runs and dropped when it ends. */
  async holding<T>(work: (hold: HoldLease) => Promise<T>): Promise<T> {
    const mine: Held[] = [];
    try {
      return await work((lease, renew, leaseMs = this.config.settlementLeaseMs) => {
        const h: Held = { lease, renew, leaseMs, unsure: [], busy: false, dropped: false };
        mine.push(h);
        this.held.add(h);
        // Beats every third of the shortest lease held; a longer one is renewed at the first beat past a quarter of it.
        const everyMs = Math.max(1, Math.floor(Math.min(this.config.settlementLeaseMs, leaseMs) / 3));
        if (this.timer && everyMs < this.everyMs) this.stop();
        if (!this.timer) {
          this.everyMs = everyMs;
          this.timer = setInterval(() => this.beat(), everyMs);
          this.timer.unref();
        }
      });
    } finally {
      for (const h of mine) this.drop(h);
    }
  }

  /** How many leases this process renews now (tests). */
  get size(): number {
    return this.held.size;
  }

  onModuleDestroy(): void {
    for (const h of this.held) this.drop(h);
  }

  private drop(h: Held): void {
    h.dropped = true;
    this.held.delete(h);
    if (this.held.size === 0) this.stop();
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private beat(): void {
    const now = this.clock.nowMs();
    for (const h of this.held) {
      if (h.busy) continue; // the last renewal has not answered yet (Postgres slow): not stacked up
      if (h.lease.getTime() - now > (h.leaseMs * 3) / 4) continue; // a longer lease, not yet a quarter used
      const to = new Date(now + h.leaseMs);
      h.busy = true;
      this.renewal(h, to).then(
        (kept) => {
          h.busy = false;
          if (kept) {
            h.lease = to;
            h.unsure = [];
          } else if (!h.dropped) {
            // Taken over, or the row moved on (the work's last write lands between beats in normal
            // traffic too): nothing left to renew. Debug, not warn; the counter tells the rate.
            this.logger.debug(
              { lease: h.lease.toISOString() },
              'lease no longer held (taken over, or its row moved on); not renewed',
            );
            this.metrics?.leasesLost.inc();
            this.drop(h);
          }
        },
        (err: Error) => {
          h.busy = false;
          h.unsure = [...h.unsure, to].slice(-UNSURE_KEPT);
          this.logger.warn({ err: err.message }, 'lease renewal failed; retried at the next beat');
        },
      );
    }
  }

  /** Renews from the lease last confirmed, else from one a failed renewal may have written (newest first). */
  private async renewal(h: Held, to: Date): Promise<boolean> {
    if (await h.renew(h.lease, to)) return true;
    for (const from of [...h.unsure].reverse()) if (await h.renew(from, to)) return true;
    return false;
  }
}
