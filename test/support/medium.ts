import 'reflect-metadata';
import { INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AgentsModule, AgentsRepository, CapabilityInput, DEFAULT_CHAIN_SETTINGS } from '@app/agents';
import { AnalyticsModule } from '@app/analytics';
import { ChainsModule } from '@app/chains';
import { DisputesModule } from '@app/disputes';
import { Clock, ClockModule } from '@app/common';
import { AppConfig, ConfigModule, loadConfig } from '@app/config';
import { DatabaseModule } from '@app/database';
import { INITIAL_REPUTATION } from '@app/reputation';
import { MetricsModule } from '@app/metrics';
import { Accounts, LedgerService } from '@app/ledger';
import { ExecutionModule } from '@app/execution';
import { OutboundModule } from '@app/outbound';
import { PaymentsModule } from '@app/payments';
import { QueuesModule, RedisModule } from '@app/queues';
import { WebhooksModule } from '@app/webhooks';
import { TEST_REDIS_URL } from '../setup/test-env';
import { createTestDatabase } from './test-db';

export interface Domain {
  app: INestApplicationContext;
  config: AppConfig;
  ds: DataSource;
  databaseUrl: string;
  get<T>(type: new (...args: never[]) => T): T;
  close(): Promise<void>;
}

/**
 * The domain libs as the apps assemble them, on a fresh database and its own Redis prefix, with
 * no HTTP server: tests call use cases directly (Immich's "medium" tier). Only what lies outside
 * the system (an agent, a chain) is a test server.
 */
export async function startDomain(env: Record<string, string> = {}, opts: { clock?: Clock } = {}): Promise<Domain> {
  const db = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: db.url,
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: `m${randomBytes(4).toString('hex')}`,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    WITHDRAWAL_RESERVE: 'off',
    ...env,
  });
  @Module({
    imports: [
      ConfigModule.forRoot(config),
      ClockModule.register(opts.clock),
      MetricsModule.forProcess('medium'),
      DatabaseModule.forRoot('agora-medium'),
      RedisModule,
      QueuesModule.forRoot(),
      OutboundModule,
      AgentsModule.register({ registrationFee: [PaymentsModule] }),
      PaymentsModule,
      ExecutionModule,
      ChainsModule,
      WebhooksModule,
      AnalyticsModule,
      DisputesModule,
    ],
  })
  class MediumModule {}
  const app = await NestFactory.createApplicationContext(MediumModule, { logger: false });
  await app.init();
  return {
    app,
    config,
    ds: app.get(DataSource),
    databaseUrl: db.url,
    get: (type) => app.get(type, { strict: false }),
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/** An active agent with one capability, written by the agents lib's repository, with its ledger accounts opened (as registration opens them). */
export async function seedAgent(
  domain: Domain,
  o: { endpoint: string; capability?: Partial<CapabilityInput>; wallet?: string },
): Promise<string> {
  const id = randomUUID();
  const capability: CapabilityInput = {
    id: 'translate',
    name: 'Translate text',
    description: 'Translates text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    pricing: { model: 'per-request', basePrice: 10_000n, currency: 'USDC' },
    ...o.capability,
  };
  await domain.ds.transaction((m) =>
    domain
      .get(AgentsRepository)
      .insert(
        m,
        {
          id,
          wallet: (o.wallet ?? `0x${randomBytes(20).toString('hex')}`).toLowerCase(),
          name: 'Seeded agent',
          description: null,
          endpoints: { execution: o.endpoint },
          metadata: {},
          reputationScore: INITIAL_REPUTATION,
          status: 'active',
          chainSettings: { ...DEFAULT_CHAIN_SETTINGS },
        },
        [capability],
      )
      .then(() =>
        domain
          .get(LedgerService)
          .openAccounts(m, [
            Accounts.agentAvailable(id),
            Accounts.agentEscrow(id),
            Accounts.agentFrozen(id),
            Accounts.agentWithdrawing(id),
            Accounts.agentOwed(id),
          ]),
      ),
  );
  return id;
}
