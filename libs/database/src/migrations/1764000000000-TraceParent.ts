import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `traceparent` on outbox events and webhook deliveries (issue 18): the W3C trace context of the
 * span that recorded the event (the execution's charge, a withdrawal's job), copied to each
 * delivery, so the worker's fan-out and delivery spans link to the trace that caused them. Null
 * while tracing is off.
 */
export class TraceParent1764000000000 implements MigrationInterface {
  name = 'TraceParent1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "outbox_events" ADD "traceparent" character varying(55)`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "traceparent" character varying(55)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "traceparent"`);
    await q.query(`ALTER TABLE "outbox_events" DROP COLUMN "traceparent"`);
  }
}
