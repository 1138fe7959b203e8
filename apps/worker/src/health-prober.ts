import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { ProbeAgents } from '@app/agents';

/**
 * Agents' health probes: a process timer (like the sweeper) that runs a probe round whenever the
 * last one ended, every fifth of HEALTH_PROBE_INTERVAL_S (200 ms to 5 s). Each round claims only
 * the agents whose probe is due (`agent_health.next_probe_at`), so ticks between rounds cost one
 * indexed query, and several workers share the agents. HEALTH_PROBE_INTERVAL_S=0: off.
 */
@Injectable()
export class HealthProber implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(HealthProber.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly probe: ProbeAgents,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const intervalS = this.config.healthProbeIntervalS;
    if (intervalS === 0) return;
    const tickMs = Math.min(5_000, Math.max(200, (intervalS * 1000) / 5));
    void this.run();
    this.timer = setInterval(() => void this.run(), tickMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const round = await this.probe.execute();
      if (round.probed) this.logger.debug(round, 'health probe round');
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'health probe round failed; will retry next tick');
    } finally {
      this.running = false;
    }
  }
}
