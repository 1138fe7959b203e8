/* The processes of npm run bench (test/bench/bench.ts) other than the load generator: the example agent,
   the api, the baseline app and the OTLP sink. `bench-roles.ts <role>` starts one and prints `READY <url>`. */
import { join } from 'node:path';
import 'reflect-metadata';
import { Controller, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { DataSource } from 'typeorm';
import { request } from 'undici';
import { ClockModule } from '@app/common';
import { ConfigModule, loadConfig } from '@app/config';
import { buildDataSourceOptions } from '@app/database';
import {
  Accounts,
  LedgerAccountEntity,
  LedgerEntryEntity,
  LedgerModule,
  LedgerService,
  LedgerTransactionEntity,
  transfer,
} from '@app/ledger';
import { createApiApp } from '../../apps/api/src/app.factory';
import { startTranslatorAgent } from '../../examples/translator-agent';

export const DB = 'agora_bench';
export const DB_URL = `postgres://postgres@127.0.0.1:5432/${DB}`;
export const ROLES_FILE = join(__dirname, 'bench-roles.ts');

/** An OTLP receiver that counts what it is sent (requests, bytes) and answers 200: the collector stand-in. */
async function roleSink(): Promise<string> {
  const seen = { requests: 0, bytes: 0 };
  const server = createServer((req, res) => {
    if (req.method === 'GET') return void res.end(JSON.stringify(seen));
    req.on('data', (c: Buffer) => (seen.bytes += c.length));
    req.on('end', () => {
      seen.requests++;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function roleApi(): Promise<string> {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: DB_URL,
    DATABASE_POOL_SIZE: '20',
    // bench:ceiling sets it per api process: 1 is the single hot row of each platform account.
    ...(process.env.BENCH_LEDGER_SHARDS ? { LEDGER_SHARDS: process.env.BENCH_LEDGER_SHARDS } : {}),
    QUEUE_PREFIX: `bench${Date.now()}`,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_CLIENT_PER_MIN: '100000000',
    RATE_LIMIT_AGENT_PER_MIN: '100000000',
    // The chained scenario's root stays open for a whole connection count's rounds, its token in use throughout.
    EXECUTION_TIMEOUT_MS: '600000',
    CHAIN_TOKEN_TTL_S: '600',
    CHAIN_TIMEOUT_S: '3600',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
}

async function roleBaseline(agentUrl: string): Promise<string> {
  // The baseline: a bare Nest route that proxies to the agent and writes one ledger transaction
  // with the product's LedgerService (so a faster ledger speeds up both sides).
  @Controller()
  class BaselineController {
    constructor(
      private readonly ds: DataSource,
      private readonly ledger: LedgerService,
    ) {}

    @Post('baseline')
    async baseline() {
      const res = await request(agentUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ requestId: 'b', capabilityId: 'translate', input: { text: 'hi' } }),
      });
      const output = await res.body.json();
      await this.ds.transaction((m) =>
        this.ledger.post(m, {
          code: 'bench.baseline',
          refId: randomUUID(),
          legs: transfer(Accounts.worldChain(), Accounts.platformRevenue(), 11_000n),
        }),
      );
      return output;
    }
  }
  @Module({
    imports: [
      TypeOrmModule.forRoot({
        ...buildDataSourceOptions({ url: DB_URL, poolSize: 20 }),
        entities: [LedgerAccountEntity, LedgerTransactionEntity, LedgerEntryEntity],
      }),
      // The ledger reads its shard count from the configuration.
      ConfigModule.forRoot(loadConfig({ NODE_ENV: 'test', DATABASE_URL: DB_URL, LOG_LEVEL: 'silent' })),
      ClockModule.register(),
      LedgerModule,
    ],
    controllers: [BaselineController],
  })
  class BaselineModule {}
  const baselineApp = await NestFactory.create(BaselineModule, { logger: ['error'], abortOnError: false });
  await baselineApp.listen(0, '127.0.0.1');
  return `http://127.0.0.1:${(baselineApp.getHttpServer().address() as AddressInfo).port}/baseline`;
}

async function role(name: string): Promise<string> {
  process.once('SIGINT', () => process.exit(0)); // exit normally so --cpu-prof writes its profile
  if (name === 'agent') return (await startTranslatorAgent({ keepCalls: false })).url;
  if (name === 'api') return roleApi();
  if (name === 'baseline') return roleBaseline(process.env.BENCH_AGENT_URL!);
  if (name === 'sink') return roleSink();
  throw new Error(`unknown role ${name}`);
}

if (require.main === module) {
  role(process.argv[2]).then(
    (url) => process.stdout.write(`READY ${url}\n`),
    (err) => {
      process.stderr.write(`bench failed: ${err.stack ?? err}\n`);
      process.exit(1);
    },
  );
}
