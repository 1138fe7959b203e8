import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { normalizeWallet } from '@app/common';
import { queryRows } from '@app/database';

/** Who a job works for: its owner (the wallet that registered the agent) or payer, lower-case. */
export interface RunParties {
  owner: string;
  payer: string;
}

/** A delivery's party: a callback's payer (who set its URL), a webhook's agent owner (who subscribed). */
export interface DeliveryParty {
  kind: 'callback' | 'webhook';
  wallet: string;
}

/** The newest this many charges are read for a party's paid record (a bounded read; it only has to reach the minimum). */
const RECORD_WINDOW = 1_000;

/**
 * What the worker's fair shares read of the rows (issue 52): whose a run or delivery is, and each
 * party's paid record. Reads only, across the tables they join (executions, agents, webhook rows,
 * transactions); the tables' own repositories write them.
 */
@Injectable()
export class WorkPartiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ofRun(executionId: string): Promise<RunParties | null> {
    const [row] = await queryRows<RunParties>(
      this.dataSource,
      `SELECT lower(e.payer) AS payer, lower(a.wallet) AS owner FROM executions e JOIN agents a ON a.id = e.agent_id WHERE e.id = $1`,
      [executionId],
    );
    return row ?? null;
  }

  async ofDelivery(deliveryId: string): Promise<DeliveryParty | null> {
    const [row] = await queryRows<{ kind: 'callback' | 'webhook'; wallet: string | null }>(
      this.dataSource,
      `SELECT d.kind, lower(CASE WHEN d.kind = 'callback' THEN e.payer ELSE a.wallet END) AS wallet
         FROM webhook_deliveries d
         LEFT JOIN executions e ON d.kind = 'callback' AND e.id = d.execution_id
         LEFT JOIN webhook_subscriptions s ON d.kind = 'webhook' AND s.id = d.subscription_id
         LEFT JOIN agents a ON a.id = s.agent_id
        WHERE d.id = $1`,
      [deliveryId],
    );
    return row?.wallet ? { kind: row.kind, wallet: row.wallet } : null;
  }

  /**
   * Agent fees (micro-USDC) a payer's charges kept, to agents other wallets registered (what it
   * paid its own agents is not counted), over its newest RECORD_WINDOW charges. Only matured charges
   * (`spend_counted`: past the dispute filing window, undisputed) make a record: a charge disputed back
   * buys nothing.
   */
  async paidBy(payer: string): Promise<bigint> {
    return this.sum(
      `SELECT t.agent_fee FROM transactions t JOIN agents a ON a.id = t.providing_agent_id
        WHERE t.payer_wallet = $1 AND t.status = 'completed' AND t.spend_counted AND lower(a.wallet) <> $1 LIMIT ${RECORD_WINDOW}`,
      payer.toLowerCase(),
    );
  }

  /** Agent fees (micro-USDC) an owner's agents' charges kept, paid by other wallets than the owner's, over RECORD_WINDOW charges. */
  async paidTo(owner: string): Promise<bigint> {
    // Agents keep their wallet checksummed (ix_agents_wallet); charges keep the payer's lower-case.
    return this.sum(
      `SELECT t.agent_fee FROM agents a JOIN transactions t ON t.providing_agent_id = a.id
        WHERE a.wallet = $2 AND t.status = 'completed' AND t.spend_counted AND t.payer_wallet <> $1 LIMIT ${RECORD_WINDOW}`,
      owner.toLowerCase(),
      normalizeWallet(owner),
    );
  }

  /**
   * Whether an owner's agents held slots long lately: at least `atLeast` of their runs created in the
   * last `withinMs` took `minMs` or more, whatever their outcome (a refusal, a price-0 answer or a
   * timeout holds a slot as long as a paid answer), by the index of an agent's executions by creation.
   */
  async stalling(owner: string, o: { withinMs: number; minMs: number; atLeast: number }): Promise<boolean> {
    const [row] = await queryRows<{ n: number }>(
      this.dataSource,
      `SELECT count(*)::int AS n FROM (
         SELECT 1 FROM agents a JOIN executions e ON e.agent_id = a.id
          WHERE a.wallet = $1 AND e.created_at > now() - make_interval(secs => $2::double precision / 1000)
            AND e.execution_time_ms >= $3 LIMIT $4) s`,
      [normalizeWallet(owner), o.withinMs, o.minMs, o.atLeast],
    );
    return row.n >= o.atLeast;
  }

  private async sum(charges: string, ...params: string[]): Promise<bigint> {
    const [row] = await queryRows<{ total: string }>(
      this.dataSource,
      `SELECT coalesce(sum(agent_fee), 0)::text AS total FROM (${charges}) c`,
      params,
    );
    return BigInt(row.total);
  }
}
