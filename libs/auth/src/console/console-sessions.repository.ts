import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@app/database';

export interface ConsoleSessionRow {
  id: string;
  wallet: string;
  agentId: string | null;
  origin: string;
  userAgent: string | null;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
}

const COLUMNS = `id, wallet, agent_id AS "agentId", origin, user_agent AS "userAgent", created_at AS "createdAt",
  expires_at AS "expiresAt", revoked_at AS "revokedAt"`;

/** The SQL of `console_sessions` and `console_used_nonces`. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * In one statement: the nonce marked used and the session opened, or nothing (false) when the
   * nonce was used before, by this sign-in or a concurrent one.
   */
  async open(
    s: Omit<ConsoleSessionRow, 'createdAt' | 'revokedAt'> & { tokenHash: string; nonce: string; nonceExpiresAt: Date },
  ): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>(
      `WITH n AS (INSERT INTO console_used_nonces (nonce, expires_at) VALUES ($7, $8) ON CONFLICT (nonce) DO NOTHING RETURNING 1)
       INSERT INTO console_sessions (id, token_hash, wallet, agent_id, origin, user_agent, expires_at)
       SELECT $1, $2, $3, $4, $5, $6, $9 FROM n RETURNING id`,
      [s.id, s.tokenHash, s.wallet, s.agentId, s.origin, s.userAgent, s.nonce, s.nonceExpiresAt, s.expiresAt],
    );
    return rows.length === 1;
  }

  /** The live session of a token's hash: not revoked, not expired. */
  async live(tokenHash: string, now: Date): Promise<ConsoleSessionRow | null> {
    const [row] = await this.tx.query<ConsoleSessionRow>(
      `SELECT ${COLUMNS} FROM console_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2`,
      [tokenHash, now],
    );
    return row ?? null;
  }

  /** A wallet's sessions, newest first (at most 100), expired and revoked ones included. */
  listOf(wallet: string): Promise<ConsoleSessionRow[]> {
    return this.tx.query<ConsoleSessionRow>(
      `SELECT ${COLUMNS} FROM console_sessions WHERE wallet = $1 ORDER BY created_at DESC, id LIMIT 100`,
      [wallet],
    );
  }

  /** Revokes one of the wallet's sessions; false when it has none by that id (or it was revoked already). */
  async revoke(wallet: string, id: string, now: Date): Promise<boolean> {
    const rows = await this.tx.query<{ id: string }>(
      `UPDATE console_sessions SET revoked_at = $3 WHERE id = $1 AND wallet = $2 AND revoked_at IS NULL RETURNING id`,
      [id, wallet, now],
    );
    return rows.length === 1;
  }

  /** Used nonces past their expiry, and sessions ended (expired or revoked) over a day ago: how many rows went. */
  async prune(now: Date): Promise<number> {
    const [row] = await this.tx.query<{ n: number }>(
      `WITH a AS (DELETE FROM console_used_nonces WHERE expires_at < $1 RETURNING 1),
            b AS (DELETE FROM console_sessions WHERE least(expires_at, coalesce(revoked_at, expires_at)) < $1::timestamptz - interval '1 day' RETURNING 1)
       SELECT ((SELECT count(*) FROM a) + (SELECT count(*) FROM b))::int AS n`,
      [now],
    );
    return row.n;
  }
}
