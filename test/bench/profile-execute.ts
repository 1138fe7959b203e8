/* Where does one sync execute spend its time? Wraps the phases of the execute path with timers
   and runs 200 sequential executes (local settlement, example agent). Used to plan optimisation. */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Wallet } from 'ethers';
import { loadConfig } from '@app/config';
import { AdmitExecution, AgentCaller, Execute, ExecuteTargetCache, RateLimiter } from '@app/execution';
import { HoldReleaseSchedule, PaymentsRepository, RecordCharge } from '@app/payments';
import { TRANSFER_WITH_AUTHORIZATION_TYPES, X402Service } from '@app/x402';
import { buildDataSourceOptions, TransactionRunner } from '@app/database';
import { LedgerService } from '@app/ledger';
import { OutboxService } from '@app/outbox';
import { createApiApp } from '../../apps/api/src/app.factory';
import { startTranslatorAgent } from '../../examples/translator-agent';

const DB_URL = 'postgres://postgres@127.0.0.1:5432/agora_profile';
const totals = new Map<string, { ms: number; n: number }>();
function wrap(obj: any, name: string, label: string) {
  const orig = obj[name].bind(obj);
  obj[name] = async (...args: unknown[]) => {
    const t = process.hrtime.bigint();
    try {
      return await orig(...args);
    } finally {
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const e = totals.get(label) ?? { ms: 0, n: 0 };
      totals.set(label, { ms: e.ms + ms, n: e.n + 1 });
    }
  };
}
function wrapSync(obj: any, name: string, label: string) {
  const orig = obj[name].bind(obj);
  obj[name] = (...args: unknown[]) => {
    const t = process.hrtime.bigint();
    try {
      return orig(...args);
    } finally {
      const ms = Number(process.hrtime.bigint() - t) / 1e6;
      const e = totals.get(label) ?? { ms: 0, n: 0 };
      totals.set(label, { ms: e.ms + ms, n: e.n + 1 });
    }
  };
}

async function header(wallet: Wallet, amount: bigint): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const authorization = {
    from: wallet.address,
    to: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    value: amount.toString(),
    validAfter: String(now - 600),
    validBefore: String(now + 900),
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  const signature = await wallet.signTypedData(
    { name: 'USDC', version: '2', chainId: 84532, verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
    TRANSFER_WITH_AUTHORIZATION_TYPES,
    authorization,
  );
  return Buffer.from(
    JSON.stringify({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature, authorization } }),
  ).toString('base64');
}

(async () => {
  const admin = new Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS agora_profile WITH (FORCE)');
  await admin.query('CREATE DATABASE agora_profile');
  await admin.end();
  const m = new DataSource(buildDataSourceOptions({ url: DB_URL, poolSize: 1 }));
  await m.initialize();
  await m.runMigrations({ transaction: 'each' });
  await m.destroy();
  const agent = await startTranslatorAgent();
  const app = await createApiApp(
    loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: DB_URL,
      QUEUE_PREFIX: `prof${Date.now()}`,
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '100000000',
      RATE_LIMIT_AGENT_PER_MIN: '100000000',
    }),
  );
  await app.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const ex = app.get(Execute) as any;
  wrap(app.get(AdmitExecution), 'execute', 'admission (target, payment, limits, claim)');
  wrap(app.get(ExecuteTargetCache), 'read', 'target read (agent+capability, on a cache miss)');
  wrap(app.get(TransactionRunner), 'batch', 'version + authorization used? (one round trip)');
  wrapSync(app.get(X402Service), 'recover', 'x402 recover');
  wrap(ex, 'execute', 'execute (total)');
  wrap(app.get(DataSource), 'transaction', 'dataSource.transaction');
  wrap(app.get(TransactionRunner), 'pipelined', 'TransactionRunner.pipelined');
  wrap(app.get(LedgerService), 'post', 'ledger.post (in tx)');
  wrap(app.get(RecordCharge), 'write', 'recordCharge (in tx)');
  wrap(app.get(PaymentsRepository), 'settleInline', 'payments.settleInline (in tx)');
  wrap(app.get(OutboxService), 'record', 'outbox.record (in tx)');
  wrap(app.get(AgentCaller), 'call', 'agent call');
  wrap(app.get(RateLimiter), 'hit', 'rate limiter + nonce claim (Redis)');
  wrap(app.get(PaymentsRepository), 'authorizationUsed', 'authorization used? (read)');
  wrap(ex, 'runFresh', 'runFresh (call + record + charge)');
  // The HTTP pipeline around the service: from the request's arrival to the controller, and from
  // the service's answer to the response's end.
  const server = app.getHttpServer();
  let arrived = 0n;
  let answered = 0n;
  server.prependListener('request', (_req: unknown, res: { once: (e: string, f: () => void) => void }) => {
    arrived = process.hrtime.bigint();
    res.once('finish', () => {
      const add = (label: string, ns: bigint) => {
        const e = totals.get(label) ?? { ms: 0, n: 0 };
        totals.set(label, { ms: e.ms + Number(ns) / 1e6, n: e.n + 1 });
      };
      add('http: arrival to response end', process.hrtime.bigint() - arrived);
      if (answered) add('http: service answer to response end', process.hrtime.bigint() - answered);
    });
  });
  const origExecute = ex.execute.bind(ex);
  ex.execute = async (...args: unknown[]) => {
    const e = totals.get('http: arrival to service') ?? { ms: 0, n: 0 };
    totals.set('http: arrival to service', { ms: e.ms + Number(process.hrtime.bigint() - arrived) / 1e6, n: e.n + 1 });
    try {
      return await origExecute(...args);
    } finally {
      answered = process.hrtime.bigint();
    }
  };
  wrap(app.get(HoldReleaseSchedule), 'schedule', 'scheduleRelease (BullMQ)');
  wrapSync(app.get(X402Service), 'verify', 'x402 verify');
  const owner = new Wallet(Wallet.createRandom().privateKey);
  const reg = await fetch(`${url}/api/v1/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-payment': await header(owner, 100_000n) },
    body: JSON.stringify({
      wallet: owner.address,
      name: 'Profiled',
      capabilities: [
        {
          id: 't',
          name: 'T',
          description: 'd',
          pricing: { model: 'per-request', basePrice: '0.01', currency: 'USDC' },
        },
      ],
      endpoints: { execution: agent.url },
    }),
  });
  const agentId = ((await reg.json()) as any).data.id;
  const client = new Wallet(Wallet.createRandom().privateKey);
  const hs = [];
  const N = Number(process.env.PROFILE_N ?? 200);
  const WARM = Number(process.env.PROFILE_WARM ?? 20);
  for (let i = 0; i < N + WARM; i++) hs.push(await header(client, 11_000n));
  const body = JSON.stringify({ targetAgentId: agentId, capabilityId: 't', input: { text: 'x' } });
  let wall = 0;
  // WAL written per request (what each COMMIT flushes).
  const lsnClient = new Client({ connectionString: DB_URL });
  await lsnClient.connect();
  const walLsn = async () =>
    BigInt((await lsnClient.query(`SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS b`)).rows[0].b);
  let walStart = 0n;
  for (let i = 0; i < N + WARM; i++) {
    if (i === WARM) {
      totals.clear();
      wall = 0;
      walStart = await walLsn();
    }
    const t = Date.now();
    const r = await fetch(`${url}/api/v1/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-payment': hs[i] },
      body,
    });
    const text = await r.text();
    if (r.status !== 200) throw new Error(`execute answered ${r.status}: ${text}`);
    wall += Date.now() - t;
  }
  process.stdout.write(
    `per request: ${(wall / N).toFixed(2)} ms wall, ${(Number((await walLsn()) - walStart) / N).toFixed(0)} bytes of WAL\n`,
  );
  await lsnClient.end();
  for (const [k, v] of [...totals].sort((a, b) => b[1].ms - a[1].ms))
    process.stdout.write(`${(v.ms / N).toFixed(2).padStart(7)} ms  ${k}\n`);
  await app.close();
  await agent.stop();
  process.exit(0);
})();
