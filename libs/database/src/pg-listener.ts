import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/**
 * A connection of its own that LISTENs on one Postgres channel and hands each notification's
 * payload to `onPayload` (Postgres delivers a NOTIFY only when the writing transaction commits).
 * A lost connection is opened again a second later (once at a time), until `stop`.
 */
export class PgListener {
  private readonly logger: Logger;
  private client: Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly o: {
      url: string;
      channel: string;
      /** The connection's application_name (and the logger's context). */
      name: string;
      onPayload: (payload: string) => void;
      /** What is lost while the connection is down (said in the warning). */
      whileDown: string;
    },
  ) {
    this.logger = new Logger(o.name);
  }

  private started = false;

  /** Opens the connection (once: later calls do nothing). */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.o.url, application_name: this.o.name });
    client.on('notification', (msg) => {
      if (msg.channel === this.o.channel && msg.payload) this.o.onPayload(msg.payload);
    });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.o.channel}`);
      // Stopped while connecting: nothing would end this connection later.
      if (this.stopped) return void client.end().catch(() => undefined);
      this.client = client;
    } catch (err) {
      this.lost(client, err as Error);
    }
  }

  /** The connection failed or ended: reconnect in a second (once), unless stopped. */
  private lost(client: Client, err?: Error): void {
    if (this.stopped || this.retry || (this.client !== null && this.client !== client)) return;
    this.client = null;
    this.logger.warn({ err: err?.message }, `${this.o.name} connection lost; reconnecting (${this.o.whileDown})`);
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, 1_000);
    this.retry.unref();
  }
}
