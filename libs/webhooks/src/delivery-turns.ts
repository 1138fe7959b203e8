import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { CapGate, CapPass } from '@app/queues';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

/**
 * The rows' side of the worker's per-host cap (WEBHOOK_HOST_CONCURRENCY, `FairShare`): an attempt
 * takes its destination's turn once claimed; one that must wait gives its claim back and stays
 * `pending` with `locked_until` marking it in line, which the sweeper respects (its job is delayed,
 * not lost) unless Redis lost the lines.
 */
@Injectable()
export class DeliveryTurns {
  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly config: AppConfig,
  ) {}

  /** A pass for an attempt claimed until `until`, or null: it waits its turn, its claim given back, marked in line a sweep past its wake-up. */
  enter(gate: CapGate, d: { id: string; url: string }, until: Date): Promise<CapPass | null> {
    const park = async (wakeAt: Date) => {
      await this.deliveries.park(d.id, until, new Date(wakeAt.getTime() + this.config.maintenanceIntervalMs));
    };
    return gate.enter(hostKey(d.url), { holdMs: this.holdMs(), park });
  }

  /** An attempt its job could not claim (done, cancelled, or a duplicate job): a turn left to the job goes on. */
  async skip(gate: CapGate, id: string): Promise<void> {
    const url = await this.deliveries.urlOf(id);
    if (url !== null) await gate.skip(hostKey(url), this.holdMs());
  }

  /** Redis lost the lines: every attempt marked in line is due for the sweeper again (its delayed job is gone). */
  async releaseLine(): Promise<void> {
    await this.deliveries.releaseLine();
  }

  /** How long an attempt's claim, and so its pass, lasts. */
  holdMs(): number {
    return this.config.webhookTimeoutMs + 5_000;
  }
}

/** The cap's key of a destination: the URL's host and port. */
function hostKey(url: string): string {
  try {
    return `host:${new URL(url).host}`;
  } catch {
    return `host:${url.slice(0, 200)}`;
  }
}
