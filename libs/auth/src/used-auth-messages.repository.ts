import { Injectable } from '@nestjs/common';
import { Queryable } from '@app/database';

/** The SQL of `used_auth_messages` (single use of signed messages); every call takes the caller's transaction. */
@Injectable()
export class UsedAuthMessagesRepository {
  /** Marks the message used; false when it already was (even by a concurrent transaction). */
  async insert(manager: Queryable, m: { messageKey: string; agentId: string; expiresAt: Date }): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO used_auth_messages (message_key, agent_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (message_key) DO NOTHING RETURNING message_key`,
      [m.messageKey, m.agentId, m.expiresAt],
    );
    return rows.length > 0;
  }

  /** Deletes the messages that expired before `now`; how many. */
  async deleteExpired(manager: Queryable, now: Date): Promise<number> {
    const result: [unknown[], number] = await manager.query(`DELETE FROM used_auth_messages WHERE expires_at < $1`, [
      now,
    ]);
    return result[1];
  }
}
