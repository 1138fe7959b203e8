/* npm run drill: the steady load. Payers pay on chain for sync executes (some with an Idempotency-Key, retried
   by their client with a fresh payment until answered, some keyless and never retried), async executes and
   per-token executes whose unused cap is refunded; agent owners ask for withdrawals. Every answer a client saw
   is recorded (status and error code) with the payment it carried, for the reconciliation. */
import { randomBytes } from 'node:crypto';
import { Wallet } from 'ethers';
import { transferAuthorizationDigest } from '@app/x402';
import { startTranslatorAgent } from '../../examples/translator-agent';
import { LocalChain } from '../../scripts/local-chain';
import { sleep } from './drill-processes';

export type AttemptKind = 'sync-key' | 'sync' | 'async' | 'refund' | 'withdraw' | 'probe' | 'register';

/** One request a client sent and what it saw. `status` 0: no HTTP answer (`code` names the network error). */
export interface Attempt {
  phase: string;
  kind: AttemptKind;
  status: number;
  code: string;
  payer?: string;
  nonce?: string;
  key?: string;
  ms: number;
}

export interface DrillAgent {
  id: string;
  owner: Wallet;
  /** Where its withdrawals go: a wallet of its own, so the transfers are told apart. */
  destination: string;
  stop(): Promise<void>;
}

const TRANSLATE_PRICE = 201_000n; // 0.20 + the platform's 0.001
const CHAT_CAP = 50_000n; // per-token 0.002 per 1,000 tokens, at most 0.05: a short text is refunded most of it

/** An x402 v1 exact payment header for `amount` to `payTo`, and its nonce. */
export function paymentHeader(payer: Wallet, amount: bigint, chain: LocalChain): { value: string; nonce: string } {
  const authorization = {
    from: payer.address,
    to: chain.platform.address,
    value: amount.toString(),
    validAfter: '0',
    validBefore: String(Math.floor(Date.now() / 1000) + 900),
    nonce: `0x${randomBytes(32).toString('hex')}`,
  };
  const domain = { name: 'USDC', version: '2', chainId: 84532, verifyingContract: chain.usdcAddress };
  const signature = payer.signingKey.sign(transferAuthorizationDigest(domain, authorization)).serialized;
  const payload = { x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature, authorization } };
  return { value: Buffer.from(JSON.stringify(payload)).toString('base64'), nonce: authorization.nonce };
}

/** POSTs JSON; answers the status (0 on a network error or a timeout) and the error code, if any, with the body. */
export async function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs = 45_000,
): Promise<{ status: number; code: string; body: any }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: any = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, code: res.ok ? '' : String(parsed?.error?.code ?? 'non-json'), body: parsed };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    return { status: 0, code: e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? 'network'), body: null };
  }
}

/** `count` payers holding 1,000,000 USDC each. */
export async function fundPayers(chain: LocalChain, count: number): Promise<Wallet[]> {
  const payers = Array.from({ length: count }, () => new Wallet(Wallet.createRandom().privateKey));
  for (const p of payers) await chain.mint(p.address, 1_000_000_000_000n);
  return payers;
}

/** Signs `agora-auth:<agentId>:<ts>:<action>` with the owner's wallet (the withdrawal's headers). */
async function ownerHeaders(owner: Wallet, agentId: string, ts: number): Promise<Record<string, string>> {
  const message = `agora-auth:${agentId}:${ts}:POST /api/v1/payments/withdraw`;
  return { 'X-Agent-Wallet': owner.address, 'X-Agent-Signature': `${message}:sig:${await owner.signMessage(message)}` };
}

/** Registers `count` agents, each served by a translator on its own loopback port, its fee paid on chain. */
export async function registerAgents(apiUrl: string, chain: LocalChain, count: number): Promise<DrillAgent[]> {
  const agents: DrillAgent[] = [];
  for (let i = 0; i < count; i++) {
    const server = await startTranslatorAgent({ keepCalls: false });
    const owner = new Wallet(Wallet.createRandom().privateKey);
    await chain.mint(owner.address, 1_000_000n);
    const res = await post(
      `${apiUrl}/api/v1/agents`,
      {
        wallet: owner.address,
        name: `Drill agent ${i + 1}`,
        capabilities: [
          {
            id: 'translate',
            name: 'Translate',
            description: 'Upper-cases text',
            pricing: { model: 'per-request', basePrice: '0.2', currency: 'USDC' },
          },
          {
            id: 'chat',
            name: 'Chat',
            description: 'Upper-cases text, priced per token',
            pricing: { model: 'per-token', basePrice: '0.002', maxPrice: '0.05', currency: 'USDC' },
          },
        ],
        endpoints: { execution: server.url },
      },
      { 'x-payment': paymentHeader(owner, 100_000n, chain).value },
    );
    if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${JSON.stringify(res.body)}`);
    const destination = Wallet.createRandom().address;
    agents.push({ id: res.body.data.id, owner, destination, stop: server.stop });
  }
  return agents;
}

/** The load: `clients` loops sending a mix through the apis in turn, recording every answer under the current phase. */
export class Load {
  readonly attempts: Attempt[] = [];
  phase = 'setup';
  private running = false;
  private loops: Promise<void>[] = [];
  private turn = 0;
  private authTs = Date.now();
  private seq = 0;

  constructor(
    private readonly apiUrls: () => string[],
    private readonly chain: LocalChain,
    private readonly payers: Wallet[],
    private readonly agents: DrillAgent[],
  ) {}

  private nextApi(): string {
    const urls = this.apiUrls();
    return urls[this.turn++ % urls.length];
  }

  private record(a: Omit<Attempt, 'phase'>): void {
    this.attempts.push({ phase: this.phase, ...a });
  }

  /** One paid execute; `key` adds an Idempotency-Key. Answers the client's result. */
  async execute(
    kind: AttemptKind,
    o: { key?: string; async?: boolean; capability?: string; apiUrl?: string; n?: number } = {},
  ): Promise<{ status: number; code: string; body: any }> {
    // A keyed retry sends the same request (payer, agent, input) with a fresh payment: `n` picks them.
    const n = o.n ?? this.seq++;
    const payer = this.payers[n % this.payers.length];
    const agent = this.agents[n % this.agents.length];
    const chat = o.capability === 'chat';
    const pay = paymentHeader(payer, chat ? CHAT_CAP + 1_000n : TRANSLATE_PRICE, this.chain);
    const t0 = performance.now();
    const res = await post(
      `${o.apiUrl ?? this.nextApi()}/api/v1/execute${o.async ? '?async=true' : ''}`,
      { targetAgentId: agent.id, capabilityId: o.capability ?? 'translate', input: { text: `drill ${n}` } },
      { 'x-payment': pay.value, ...(o.key ? { 'Idempotency-Key': o.key } : {}) },
    );
    const ms = Math.round(performance.now() - t0);
    if (process.env.DRILL_DEBUG && res.status !== 200 && res.status !== 202)
      process.stdout.write(`${kind} ${res.status} ${JSON.stringify(res.body?.error ?? res.code).slice(0, 400)}\n`);
    this.record({ kind, status: res.status, code: res.code, payer: payer.address, nonce: pay.nonce, key: o.key, ms });
    return res;
  }

  /** A keyed execute, retried with a fresh payment and the same key until answered 2xx or 4xx (at most 8 tries). */
  private async keyed(): Promise<void> {
    const key = `drill-${randomBytes(6).toString('hex')}`;
    const n = this.seq++;
    for (let attempt = 0; attempt < 8; attempt++) {
      const res = await this.execute('sync-key', { key, n });
      if (res.status >= 200 && res.status < 500 && res.code !== 'IDEMPOTENCY_CONFLICT') return;
      await sleep(300 + attempt * 300);
    }
  }

  private async withdraw(): Promise<void> {
    const agent = this.agents[this.seq++ % this.agents.length];
    const t0 = performance.now();
    const res = await post(
      `${this.nextApi()}/api/v1/payments/withdraw`,
      { agentId: agent.id, amount: '1.000000', destinationWallet: agent.destination },
      await ownerHeaders(agent.owner, agent.id, (this.authTs = Math.max(this.authTs + 1, Date.now()))),
    );
    this.record({ kind: 'withdraw', status: res.status, code: res.code, ms: Math.round(performance.now() - t0) });
  }

  private async once(): Promise<void> {
    const r = Math.random();
    if (r < 0.3) return this.keyed();
    if (r < 0.55) return void (await this.execute('sync'));
    if (r < 0.75) return void (await this.execute('async', { async: true }));
    if (r < 0.9) return void (await this.execute('refund', { capability: 'chat' }));
    return this.withdraw();
  }

  start(clients: number): void {
    this.running = true;
    this.loops = Array.from({ length: clients }, async () => {
      while (this.running) {
        await this.once();
        await sleep(50);
      }
    });
  }

  /** Stops sending and waits for what is in flight (each request is bounded by its timeout). */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }
}
