/* The chain bench's processes and measurements: each role (agent, api, worker, reference
   facilitator, reference server) runs as its own process, started by spawnRole(ROLES_FILE, name);
   gas and settlements are read from receipts; CPU from /proc; the money check runs ledger:check. */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { id as eventTopic, Wallet } from 'ethers';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '@app/config';
import { createApiApp } from '../../apps/api/src/app.factory';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { startTranslatorAgent } from '../../examples/translator-agent';
import { LocalChain } from '../../scripts/local-chain';
import { cpuMs, postgresCpuMs, processesCpuMs } from './bench-lib';
import { startReferenceFacilitator, startReferenceServer } from './reference-stack';

export const ROLES_FILE = __filename;
const AUTHORIZATION_USED = eventTopic('AuthorizationUsed(address,bytes32)');

/** The roles' environment on `chain`: its database, queue prefix, RPC, token, batcher and keys (account 0 relays, 1 facilitates). */
export function chainBenchEnv(chain: LocalChain, dbUrl: string, prefix: string): Record<string, string> {
  return {
    BENCH_DB_URL: dbUrl,
    BENCH_QUEUE_PREFIX: `${prefix}${Date.now()}`,
    BENCH_RPC_URL: chain.rpcUrl,
    BENCH_USDC: chain.usdcAddress,
    BENCH_BATCHER: chain.batcherAddress,
    BENCH_RELAYER_KEY: chain.account(0).privateKey,
    BENCH_FACILITATOR_KEY: chain.account(1).privateKey,
  };
}

/** `count` new payers holding the token, funded at once (one mint each, explicit nonces: with 1-second blocks one by one would take a second each). */
export async function fundedPayers(chain: LocalChain, count: number): Promise<Wallet[]> {
  const payers = Array.from({ length: count }, () => new Wallet(Wallet.createRandom().privateKey));
  const deployer = chain.account(10).connect(chain.provider);
  const first = await chain.provider.getTransactionCount(deployer.address, 'pending');
  const mints = await Promise.all(
    payers.map((p, i) =>
      chain.token.connect(deployer).getFunction('mint')(p.address, 1_000_000_000_000n, { nonce: first + i }),
    ),
  );
  await Promise.all(mints.map((tx) => tx.wait()));
  return payers;
}

/** Receipts of blocks (from, to]: gas and settlements (AuthorizationUsed logs) of the transactions sent by `sender`. */
export async function gasOf(
  chain: LocalChain,
  sender: string,
  from: number,
  to: number,
): Promise<{ gas: bigint; settlements: number }> {
  let gas = 0n;
  let settlements = 0;
  type Receipt = { from: string; gasUsed: string; logs: { topics: string[] }[] };
  // 32 blocks at a time (one JSON-RPC batch): a run's check reads thousands of automined blocks.
  for (let b = from + 1; b <= to; b += 32) {
    const blocks = Array.from({ length: Math.min(32, to - b + 1) }, (_, i) => b + i);
    const all = await Promise.all(
      blocks.map((n) => chain.provider.send('eth_getBlockReceipts', [`0x${n.toString(16)}`]) as Promise<Receipt[]>),
    );
    for (const r of all.flatMap((x) => x ?? [])) {
      if (r.from.toLowerCase() !== sender.toLowerCase()) continue;
      gas += BigInt(r.gasUsed);
      settlements += r.logs.filter((l) => l.topics[0] === AUTHORIZATION_USED).length;
    }
  }
  return { gas, settlements };
}

/** CPU ms so far of the serving processes, anvil, Postgres and Redis; and the machine's busy and total jiffies. */
export function cpuNow(servers: (number | undefined)[]): number[] {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((a, b) => a + b, 0);
  return [
    servers.reduce<number>((sum, pid) => sum + cpuMs(pid), 0),
    processesCpuMs('anvil'),
    postgresCpuMs(),
    processesCpuMs('redis-server'),
    total - idle,
    total,
  ];
}

export function cpuPerRequest(before: number[], after: number[], requests: number): string {
  const [server, anvil, pg, redis] = after.slice(0, 4).map((v, i) => (v - before[i]) / Math.max(1, requests));
  const busy = (after[4] - before[4]) / Math.max(1, after[5] - before[5]);
  return `server ${server.toFixed(1)} / anvil ${anvil.toFixed(1)} / pg ${pg.toFixed(1)} / redis ${redis.toFixed(1)}; machine ${Math.round(busy * 100)}% busy`;
}

export async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export function ledgerCheck(dbUrl: string): boolean {
  try {
    execFileSync(
      process.execPath,
      ['-r', '@swc-node/register', join(__dirname, '../../apps/ops/src/main.ts'), 'ledger:check'],
      {
        env: { ...process.env, DATABASE_URL: dbUrl, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
        stdio: 'pipe',
      },
    );
    return true;
  } catch (err) {
    process.stdout.write(String((err as { stdout?: Buffer }).stdout ?? err));
    return false;
  }
}

function evmConfig(): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: process.env.BENCH_DB_URL!,
    DATABASE_POOL_SIZE: '20',
    QUEUE_PREFIX: process.env.BENCH_QUEUE_PREFIX!,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
    RATE_LIMIT_CLIENT_PER_MIN: '100000000',
    RATE_LIMIT_AGENT_PER_MIN: '100000000',
    // The chained scenario's root, its one token and its chain outlive the runs.
    EXECUTION_TIMEOUT_MS: '3600000',
    CHAIN_TOKEN_TTL_S: '3600',
    CHAIN_TIMEOUT_S: '3600',
    SETTLEMENT_MODE: 'evm',
    EVM_RPC_URL: process.env.BENCH_RPC_URL!,
    USDC_ADDRESS: process.env.BENCH_USDC!,
    SETTLEMENT_BATCHER_ADDRESS: process.env.BENCH_BATCHER!,
    RELAYER_PRIVATE_KEY: process.env.BENCH_RELAYER_KEY!,
    PLATFORM_WALLET: new Wallet(process.env.BENCH_RELAYER_KEY!).address,
    // Outside local settlement the public development seeds are refused; the roles share these.
    PLATFORM_SIGNING_SEED: '5e'.repeat(32),
    CHAIN_TOKEN_SEEDS: 'c7'.repeat(32),
    // A comparison run (BENCH_BATCH_WINDOW_MS=0: batches only of what arrived while the last one was persisted).
    ...(process.env.BENCH_BATCH_WINDOW_MS ? { EVM_BATCH_WINDOW_MS: process.env.BENCH_BATCH_WINDOW_MS } : {}),
    ...(process.env.BENCH_BATCH_MIN ? { EVM_BATCH_MIN: process.env.BENCH_BATCH_MIN } : {}),
  };
}

async function role(name: string): Promise<string> {
  process.once('SIGINT', () => process.exit(0));
  const e = process.env;
  if (name === 'agent') return (await startTranslatorAgent({ keepCalls: false })).url;
  if (name === 'api') {
    const app = await createApiApp(loadConfig(evmConfig()));
    await app.listen(0, '127.0.0.1');
    return `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  }
  if (name === 'worker') {
    const app = await NestFactory.createApplicationContext(WorkerModule.register(loadConfig(evmConfig())), {
      logger: false,
    });
    await app.init();
    return 'worker';
  }
  if (name === 'facilitator')
    return (
      await startReferenceFacilitator({
        rpcUrl: e.BENCH_RPC_URL!,
        chainId: 84532,
        privateKey: e.BENCH_FACILITATOR_KEY!,
        pollingMs: e.BENCH_REF_POLL_MS ? Number(e.BENCH_REF_POLL_MS) : undefined,
      })
    ).url;
  if (name === 'reference') {
    const server = await startReferenceServer({
      facilitatorUrl: e.BENCH_FACILITATOR_URL!,
      agentUrl: e.BENCH_AGENT_URL!,
      payTo: e.BENCH_PAY_TO!,
      asset: e.BENCH_USDC!,
      chainId: 84532,
      price: '0.011',
      maxTimeoutSeconds: 1800,
    });
    return server.url;
  }
  throw new Error(`unknown role ${name}`);
}

if (require.main === module) {
  role(process.argv[2] ?? '')
    .then((url) => process.stdout.write(`READY ${url}\n`))
    .catch((err) => {
      process.stderr.write(`role ${process.argv[2]} failed: ${err.stack ?? err}\n`);
      process.exit(1);
    });
}
