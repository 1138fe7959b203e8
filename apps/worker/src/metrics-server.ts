import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { sharedWhileRunning } from '@app/common';
import { AppConfig } from '@app/config';
import { Metrics, scrapeAuthorized } from '@app/metrics';
import { JobProducer } from '@app/queues';

/**
 * The worker has no HTTP server but this one: GET /metrics on METRICS_HOST:METRICS_PORT (off when
 * the port is 0; loopback unless configured), in the Prometheus text format, with the queues'
 * depths read from Redis at scrape time. It asks for METRICS_TOKEN when one is configured (config
 * refuses a non-loopback host without one); a scrape that arrives while another renders shares
 * its text (a flood reads Redis once at a time).
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsServer.name);
  private server?: Server;
  private readonly sharedRender = sharedWhileRunning(() => this.render());

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly producer: JobProducer,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.metricsPort === 0) return;
    this.server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      const token = this.config.metricsToken;
      if (token !== undefined && !scrapeAuthorized(req.headers.authorization, token)) {
        res
          .writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' })
          .end('GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n');
        return;
      }
      this.sharedRender().then(
        (text) => res.writeHead(200, { 'content-type': this.metrics.contentType }).end(text),
        (err: unknown) => {
          this.logger.warn({ err }, 'metrics could not be rendered');
          res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n');
        },
      );
    });
    await new Promise<void>((resolve) =>
      this.server!.listen(this.config.metricsPort, this.config.metricsHost, resolve),
    );
    const bound = this.address()!;
    this.logger.log(`metrics on ${bound.address}:${bound.port}/metrics`);
  }

  /** Where the port listens (none while off). */
  address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
  }

  /** Queue depths are read now; if Redis is down they are left out rather than failing the scrape. */
  private async render(): Promise<string> {
    this.metrics.queueDepth.reset();
    const depths = await Promise.race([
      this.producer.depths(),
      new Promise<null>((r) => setTimeout(() => r(null), 1_000).unref()),
    ]).catch(() => null);
    for (const d of depths ?? []) this.metrics.queueDepth.set({ queue: d.queue, state: d.state }, d.count);
    return this.metrics.text();
  }
}
