import { callCapability, CapabilityCallOptions, CapabilityCallResult } from './capability-call';
import { AgoraError, ValidationError } from './errors';
import type { components } from './generated/openapi';
import { formatMicros, toMicros } from './money';
import { Payer, PaymentSent, SpendCaps } from './payer';
import type { Chain, ExecuteOptions, ExecuteResult, Execution } from './execute-types';
import { DiscoveryResource, DisputesResource, PaymentsResource, WebhooksResource } from './resources';
import { AgoraSigner, SignedAction, toSigner, WalletAuthSigner } from './signer';
import { HttpOptions, resilientFetch } from './retry';
import { AgoraSession, SessionOptions } from './session';
import { Api, createApi, unwrap } from './transport';

type Schemas = components['schemas'];
export type Agent = Schemas['AgentResponse'];
export type RegisterAgentInput = Omit<Schemas['RegisterAgentDto'], 'wallet'> & { wallet?: string };
export type UpdateAgentInput = Schemas['UpdateAgentDto'];

export interface AgoraClientOptions {
  /** Where the API is: `https://agora.example.com` (the `/api/v1` paths are added). */
  baseUrl: string;
  /** Signs payments and wallet-auth headers: an ethers Wallet or Signer, or a private key. */
  wallet?: AgoraSigner | string;
  /** Never pay more than this per call or per client (USDC). Default 1.00 per call, 10.00 per session. */
  spendCap?: SpendCaps;
  /** How async executions are awaited: first wait, longest wait and the total before giving up. */
  polling?: { initialMs?: number; maxMs?: number; timeoutMs?: number };
  /** Tokens this client pays besides USDC, by network (`{ 'eip155:84532': '0x...' }`: a local chain's test token). */
  allowedAssets?: Record<string, string>;
  fetch?: typeof fetch;
  /**
   * Network retries (default 3 attempts with backoff; `false`: none): connection failures and
   * gateway 502/504 for reads and for calls with an Idempotency-Key (every execute but a chain
   * root has one: the SDK makes one when none is given, so a retry never pays twice), 503 and 429
   * with Retry-After.
   */
  retry?: HttpOptions['retry'];
  /** Longest wait for each HTTP request's answer (ms); past it the call fails with TimeoutError REQUEST_TIMEOUT, not retried. */
  timeout?: number;
}

const DEFAULT_CAPS: SpendCaps = { perCall: '1.00', perSession: '10.00' };

/** The agora API: typed calls, x402 payments under spend caps, wallet-signed routes, async runs awaited. */
export class AgoraClient {
  readonly api: Api;
  readonly payments: PaymentsResource;
  readonly webhooks: WebhooksResource;
  readonly disputes: DisputesResource;
  readonly discovery: DiscoveryResource;
  private readonly signer: AgoraSigner | null;
  private readonly auth: WalletAuthSigner | null;
  private readonly payer: Payer | null;

  constructor(private readonly options: AgoraClientOptions) {
    const inner = (request: Request) => (options.fetch ?? fetch)(request);
    const http = resilientFetch(inner, { retry: options.retry, timeout: options.timeout }) as typeof fetch;
    this.api = createApi(options.baseUrl, http);
    this.signer = options.wallet ? toSigner(options.wallet) : null;
    this.auth = this.signer ? new WalletAuthSigner(this.signer) : null;
    this.payer = this.signer
      ? new Payer(this.signer, options.spendCap ?? DEFAULT_CAPS, options.allowedAssets, http)
      : null;
    const sign = (agentId: string, action: SignedAction) => this.walletAuth().agentHeaders(agentId, action);
    const payerRead = async () => ({
      wallet: this.requireSigner().address,
      headers: await this.walletAuth().payerReadHeaders(),
    });
    this.payments = new PaymentsResource(this.api, sign, payerRead);
    this.webhooks = new WebhooksResource(this.api, sign);
    this.disputes = new DisputesResource(this.api, sign, async (txId) =>
      this.auth ? this.auth.clientHeaders(txId) : null,
    );
    this.discovery = new DiscoveryResource(this.api, payerRead, () => this.signer !== null);
  }

  /** The wallet's address, when one is configured. */
  get address(): string | null {
    return this.signer?.address ?? null;
  }

  /** Micro-USDC this client has signed for, and what is left of its session cap. */
  get spending(): { spent: string; remaining: string } {
    const payer = this.requirePayer();
    return { spent: formatMicros(payer.sessionSpent), remaining: formatMicros(payer.remaining) };
  }

  /** Registers an agent owned by this wallet, paying the 0.10 registration fee. */
  async registerAgent(input: RegisterAgentInput): Promise<Agent> {
    const body = { ...input, wallet: input.wallet ?? this.requireSigner().address } as Schemas['RegisterAgentDto'];
    const { result, paid } = await this.paid((fetch) => this.api.POST('/api/v1/agents', { body, fetch }));
    // 202: the fee moved but the agent could not be confirmed (a fault); its statusUrl says which way it went.
    if (isPendingRegistration(result)) {
      const err = new AgoraError(
        'REGISTRATION_PENDING',
        'Fee payment written, its outcome or the agent not confirmed yet: read statusUrl',
        202,
        result,
      );
      if (paid) err.payment = { header: paid.header, amount: formatMicros(paid.amount) };
      throw err;
    }
    return result as Agent;
  }

  async getAgent(agentId: string): Promise<Agent> {
    return (await unwrap(this.api.GET('/api/v1/agents/{id}', { params: { path: { id: agentId } } }))) as Agent;
  }

  /** The agent's health and its probe history by the hour (the last 7 days). */
  getAgentHealth(agentId: string) {
    return unwrap(this.api.GET('/api/v1/agents/{id}/health', { params: { path: { id: agentId } } }));
  }

  async updateAgent(agentId: string, patch: UpdateAgentInput): Promise<Agent> {
    const header = await this.walletAuth().agentHeaders(agentId, `PATCH /api/v1/agents/${encodeURIComponent(agentId)}`);
    return (await unwrap(
      this.api.PATCH('/api/v1/agents/{id}', { params: { path: { id: agentId } }, headers: header, body: patch }),
    )) as Agent;
  }

  async deactivateAgent(agentId: string) {
    const header = await this.walletAuth().agentHeaders(
      agentId,
      `DELETE /api/v1/agents/${encodeURIComponent(agentId)}`,
    );
    return unwrap(this.api.DELETE('/api/v1/agents/{id}', { params: { path: { id: agentId } }, headers: header }));
  }

  /**
   * Runs a capability, paying its price with x402 within the caps (refused before signing when
   * the price is above them). An async run is awaited by polling its status with backoff.
   */
  async execute(o: ExecuteOptions): Promise<ExecuteResult> {
    const body = {
      targetAgentId: o.targetAgentId,
      capabilityId: o.capabilityId,
      input: o.input,
      ...(o.callbackUrl ? { callbackUrl: o.callbackUrl } : {}),
      ...(o.chain ? { chain: o.chain } : {}),
    };
    // Every execute is paid: one key for the logical call, sent on every attempt, so a retry is answered without a second
    // charge. A chain root takes no key (the API refuses one), nor does a chained call (its budget pays; the key would not
    // be kept): both are retried only where nothing ran (503, 429).
    const key = o.idempotencyKey ?? (o.chain || o.chainToken ? undefined : globalThis.crypto.randomUUID());
    const headers: Record<string, string> = key === undefined ? {} : { 'Idempotency-Key': key };
    const query = o.async ? { async: true } : undefined;
    if (o.chainToken) {
      const data = await unwrap(
        this.api.POST('/api/v1/execute', {
          body,
          params: { query },
          headers: { ...headers, 'X-Chain-Token': o.chainToken },
        }),
      );
      return { ...(data as Execution), paid: null, payment: null };
    }
    const cap = o.maxPayment === undefined ? undefined : toMicros(o.maxPayment);
    const { result, paid } = await this.paid(
      (fetch) => this.api.POST('/api/v1/execute', { body, params: { query }, headers, fetch }),
      cap,
    ).catch((err: unknown) => {
      if (err instanceof AgoraError && key !== undefined) err.idempotencyKey = key;
      throw err;
    });
    const payment = paid?.header ?? null;
    const accepted = result as { jobId?: string; statusUrl?: string } & Execution;
    const execution =
      accepted.jobId && o.wait !== false
        ? await this.waitForExecution(accepted.jobId, payment).catch((err: unknown) => {
            if (err instanceof AgoraError && paid)
              err.payment = { header: paid.header, amount: formatMicros(paid.amount) };
            throw err;
          })
        : accepted;
    return { ...(execution as Execution), paid: paid ? formatMicros(paid.amount) : null, payment };
  }

  /**
   * Runs one capability on its own x402 resource with a payment the caller made (or none): the
   * API's 402 comes back as `{kind: 'payment-required', paymentRequired}` (its `PAYMENT-REQUIRED`
   * object), a run as `{kind: 'executed', execution, paymentResponse}`; nothing is signed, so no
   * wallet is needed. Other refusals throw their typed error.
   */
  callCapability(o: CapabilityCallOptions): Promise<CapabilityCallResult> {
    return callCapability(this.api, o);
  }

  /**
   * An execution's status; its output only to its payer: with the header that paid for it, or (`payment`
   * left out) this client's wallet signing the payer's read message (another wallet's execution is answered
   * as to any reader, without the output). `null`: read as an anonymous visitor.
   */
  async getExecution(requestId: string, payment?: { name: string; value: string } | null): Promise<Execution> {
    const headers = payment
      ? { [payment.name]: payment.value }
      : payment === undefined && this.auth
        ? await this.auth.payerReadHeaders()
        : undefined;
    return (await unwrap(
      this.api.GET('/api/v1/execute/{requestId}', { params: { path: { requestId } }, headers }),
    )) as Execution;
  }

  /** Polls an execution until it is no longer pending (backoff from `initialMs` to `maxMs`). */
  async waitForExecution(requestId: string, payment?: { name: string; value: string } | null): Promise<Execution> {
    const { initialMs = 200, maxMs = 2_000, timeoutMs = 300_000 } = this.options.polling ?? {};
    const deadline = Date.now() + timeoutMs;
    for (let wait = initialMs; ; wait = Math.min(maxMs, Math.ceil(wait * 1.5))) {
      const execution = await this.getExecution(requestId, payment);
      if (execution.status !== 'pending') return execution;
      if (Date.now() + wait > deadline) {
        throw new AgoraError('EXECUTION_TIMEOUT', `Execution ${requestId} was still pending after ${timeoutMs} ms`, 0, {
          requestId,
        });
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }

  /** Retries a failed or timed-out execution with its stored authorization (no new charge). */
  async retryExecution(requestId: string, payment: { name: string; value: string }): Promise<Execution> {
    return (await unwrap(
      this.api.POST('/api/v1/execute/{requestId}/retry', {
        params: { path: { requestId } },
        headers: { [payment.name]: payment.value },
      }),
    )) as Execution;
  }

  /** Pay once, call many: a session whose first call opens a chain with `budget` that the later calls spend (AgoraSession). */
  session(options: SessionOptions): AgoraSession {
    return new AgoraSession(this, options);
  }

  /** Closes a chain with a token of its root caller: its tokens given up, the unspent budget refunded once nothing runs. */
  async closeChain(chainId: string, chainToken: string): Promise<Chain> {
    return (await unwrap(
      this.api.POST('/api/v1/chains/{id}/close', {
        params: { path: { id: chainId }, header: { 'X-Chain-Token': chainToken } },
      }),
    )) as Chain;
  }

  /** The platform's Ed25519 keys (what X-Agora-Signature is checked against). */
  platformKeys() {
    return unwrap(this.api.GET('/api/v1/platform/keys'));
  }

  private async paid<R extends { data?: unknown; error?: unknown; response: Response }>(
    send: (fetch: (r: Request) => Promise<Response>) => Promise<R>,
    perCall?: bigint,
  ): Promise<{ result: unknown; paid: PaymentSent | null }> {
    const payer = this.requirePayer();
    let paid: PaymentSent | null = null;
    try {
      const result = await unwrap(
        send(async (request) => {
          const sent = await payer.fetch(request, perCall, (signed) => (paid = signed));
          paid = sent.paid;
          return sent.response;
        }),
      );
      return { result, paid };
    } catch (err) {
      // The header that paid is the payer's proof (a retry, a status read, a dispute): never lost with the error.
      const signed = paid as PaymentSent | null;
      if (err instanceof AgoraError && signed)
        err.payment = { header: signed.header, amount: formatMicros(signed.amount) };
      throw err;
    }
  }

  private requireSigner(): AgoraSigner {
    if (!this.signer)
      throw new ValidationError('VALIDATION_ERROR', 'This call needs a wallet: create the client with `wallet`', 0);
    return this.signer;
  }

  private requirePayer(): Payer {
    this.requireSigner();
    return this.payer!;
  }

  private walletAuth(): WalletAuthSigner {
    this.requireSigner();
    return this.auth!;
  }
}

function isPendingRegistration(result: unknown): result is Record<string, unknown> {
  const r = result as { status?: unknown; statusUrl?: unknown } | null;
  return typeof r === 'object' && r !== null && r.status === 'pending' && typeof r.statusUrl === 'string';
}
