import { DataSource } from 'typeorm';

/** One delivery attempt of a subscription, as its row keeps it (rows, not Redis, hold the schedule). */
export interface DeliveryRow {
  id: string;
  attempt: number;
  status: string;
  manual: boolean;
  scheduledAt: Date;
  attemptedAt: Date;
}

/** A subscription's attempts, oldest first. */
export const deliveryRows = (ds: DataSource, sub: string): Promise<DeliveryRow[]> =>
  ds.query(
    `SELECT id, attempt, status, manual, scheduled_at AS "scheduledAt", attempted_at AS "attemptedAt"
       FROM webhook_deliveries WHERE subscription_id = $1 ORDER BY created_at, attempt`,
    [sub],
  );

/**
 * A probe for waitFor: nothing more can reach `sub`, every event of `agentId` fanned out and no attempt of `sub`
 * pending or in flight (deliveries are made from rows only).
 */
export const nothingLeftToSend = (ds: DataSource, agentId: string, sub: string) => async (): Promise<boolean> =>
  (
    await ds.query(
      `SELECT (SELECT count(*) FROM outbox_events WHERE agent_id = $1 AND published_at IS NULL)
            + (SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $2 AND status IN ('pending', 'sending'))
           = 0 AS done`,
      [agentId, sub],
    )
  )[0].done as boolean;

/** The event was fanned out before the sweeper could take it (the sweeper takes only events 2 s old): by the relay. */
export const relayedBeforeSweep = async (ds: DataSource, eventId: string): Promise<boolean> =>
  (
    await ds.query(
      `SELECT published_at - created_at < interval '2 seconds' AS relayed FROM outbox_events WHERE id = $1`,
      [eventId],
    )
  )[0]?.relayed === true;
