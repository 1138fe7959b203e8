import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TransactionRunner } from '@app/database';

/** A secret the platform made for itself (migration PlatformSecrets): one purpose each. */
@Entity('platform_secrets')
export class PlatformSecretEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_platform_secrets' }) name: string;
  @Column({ type: 'bytea' }) secret: Buffer;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}

/** The SQL of `platform_secrets`. */
@Injectable()
export class PlatformSecrets {
  constructor(private readonly tx: TransactionRunner) {}

  /**
   * The secret named `name`: 32 random bytes, made by the first caller of any process (the others'
   * inserts do nothing) and the same for every process from then on.
   */
  async get(name: string): Promise<Buffer> {
    await this.tx.query(`INSERT INTO platform_secrets (name, secret) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
      name,
      randomBytes(32),
    ]);
    const [row] = await this.tx.query<{ secret: Buffer }>(`SELECT secret FROM platform_secrets WHERE name = $1`, [
      name,
    ]);
    return row.secret;
  }
}
