import { ValidationError } from './errors';
import { bodyHash } from './signer';
import type { AgentAuthHeaders, SignedAction } from './signer';
import { Api, unwrap } from './transport';

/** Signs agent headers for one request: the message names it (`"<METHOD> <path>"`), as the API requires for changes. */
type Sign = (id: string, action: SignedAction) => Promise<AgentAuthHeaders>;
/** A path segment as openapi-fetch sends it. */
const seg = encodeURIComponent;
/** The payer's X-Client-* headers for a transaction; null when the client has no wallet. */
type SignClient = (id: string) => Promise<Record<string, string> | null>;
type Page = { limit?: number; offset?: number };
type Proof = { name: string; value: string };

/** This wallet's address and its payer read headers (X-Client-Wallet + X-Client-Signature over itself). */
type PayerRead = () => Promise<{ wallet: string; headers: Record<string, string> }>;

/** Balances, history, withdrawals, transactions and platform stats. */
export class PaymentsResource {
  constructor(
    private readonly api: Api,
    private readonly sign: Sign,
    private readonly payerRead: PayerRead,
  ) {}

  balance(agentId: string) {
    return unwrap(this.api.GET('/api/v1/payments/balance/{agentId}', { params: { path: { agentId } } }));
  }

  /** The agent's transactions (signed by its wallet). */
  async history(agentId: string, page: Page = {}) {
    const header = await this.sign(agentId, `GET /api/v1/payments/history/${seg(agentId)}`);
    return unwrap(
      this.api.GET('/api/v1/payments/history/{agentId}', {
        params: { path: { agentId }, query: page },
        headers: header,
      }),
    );
  }

  /**
   * Withdraws `amount` (USDC, at least 1.00; the 0.10 fee is taken from it) to `destinationWallet`. The
   * signature also names the body's SHA-256, so neither amount nor destination can be altered in flight.
   */
  async withdraw(agentId: string, amount: string, destinationWallet: string) {
    const body = { agentId, amount, destinationWallet };
    // openapi-fetch sends JSON.stringify(body): the bytes hashed here.
    const header = await this.sign(agentId, `POST /api/v1/payments/withdraw:${bodyHash(body)}`);
    return unwrap(this.api.POST('/api/v1/payments/withdraw', { body, headers: header }));
  }

  withdrawal(id: string) {
    return unwrap(this.api.GET('/api/v1/payments/withdrawal/{id}', { params: { path: { id } } }));
  }

  withdrawals(agentId: string, page: Page = {}) {
    return unwrap(
      this.api.GET('/api/v1/payments/withdrawals/{agentId}', { params: { path: { agentId }, query: page } }),
    );
  }

  transaction(txId: string) {
    return unwrap(this.api.GET('/api/v1/payments/tx/{txId}', { params: { path: { txId } } }));
  }

  /**
   * What became of a payment (public): by settlement transaction hash, authorization nonce or payment identifier.
   * `asPayer`: as this client's wallet, its payer (`?payer=` and its signature): a nonce or idempotency key of
   * this wallet is looked up, and the request id it paid for is given (the payer's only: never to anyone else).
   */
  async status(ref: string, o: { asPayer?: boolean } = {}) {
    if (!o.asPayer) return unwrap(this.api.GET('/api/v1/payments/status/{ref}', { params: { path: { ref } } }));
    const { wallet, headers } = await this.payerRead();
    return unwrap(
      this.api.GET('/api/v1/payments/status/{ref}', { params: { path: { ref }, query: { payer: wallet } }, headers }),
    );
  }

  stats() {
    return unwrap(this.api.GET('/api/v1/payments/stats'));
  }
}

export type WebhookEvent =
  | 'execution.completed'
  | 'execution.failed'
  | 'dispute.filed'
  | 'dispute.resolved'
  | 'escrow.released'
  | 'withdrawal.completed'
  | 'withdrawal.failed'
  | 'agent.health_changed';

/** Webhook subscriptions of an agent (signed by its wallet). */
export class WebhooksResource {
  constructor(
    private readonly api: Api,
    private readonly sign: Sign,
  ) {}

  async create(o: { agentId: string; url: string; events: WebhookEvent[]; secret?: string }) {
    return unwrap(
      this.api.POST('/api/v1/webhooks', { body: o, headers: await this.sign(o.agentId, 'POST /api/v1/webhooks') }),
    );
  }

  /** The agent's subscriptions. `signed`: with its wallet's signature, each URL whole (unsigned: origins only). */
  async list(agentId: string, page: Page = {}, o: { signed?: boolean } = {}) {
    const headers = o.signed ? await this.sign(agentId, `GET /api/v1/webhooks/agent/${seg(agentId)}`) : undefined;
    return unwrap(
      this.api.GET('/api/v1/webhooks/agent/{agentId}', { params: { path: { agentId }, query: page }, headers }),
    );
  }

  async remove(id: string, agentId: string) {
    return unwrap(
      this.api.DELETE('/api/v1/webhooks/{id}', {
        params: { path: { id } },
        headers: await this.sign(agentId, `DELETE /api/v1/webhooks/${seg(id)}`),
      }),
    );
  }

  async deliveries(id: string, agentId: string, page: Page = {}) {
    const header = await this.sign(agentId, `GET /api/v1/webhooks/${seg(id)}/deliveries`);
    return unwrap(
      this.api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: page }, headers: header }),
    );
  }

  async redeliver(id: string, deliveryId: string, agentId: string) {
    const header = await this.sign(agentId, `POST /api/v1/webhooks/${seg(id)}/deliveries/${seg(deliveryId)}/redeliver`);
    return unwrap(
      this.api.POST('/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id, deliveryId } },
        headers: header,
      }),
    );
  }

  /**
   * The agent's domain events, oldest first, after `after` (the previous page's `nextCursor`, or an
   * event's `cursor`): the same events webhooks deliver, for backfill or polling without a public URL.
   */
  async events(agentId: string, page: { after?: string; limit?: number } = {}) {
    const header = await this.sign(agentId, 'GET /api/v1/events');
    return unwrap(this.api.GET('/api/v1/events', { params: { query: page }, headers: header }));
  }
}

/** Disputes: filed by the payer, answered by the agent. */
export class DisputesResource {
  constructor(
    private readonly api: Api,
    private readonly sign: Sign,
    private readonly signClient: SignClient,
  ) {}

  /**
   * Files a dispute as the payer: with this wallet's signature over the transaction id (a verified filing). The
   * payment header that paid (`payment`) is the proof only for a client without a wallet: in evm settlement a
   * header can be rebuilt from chain data, so a filing it alone proves is unverified (deprecated since API 1.2.0).
   */
  async file(o: { transactionId: string; reason: string; evidence?: string; payment?: Proof | null }) {
    const signed = await this.signClient(o.transactionId);
    const headers = signed ?? (o.payment ? { [o.payment.name]: o.payment.value } : null);
    if (!headers)
      throw new ValidationError('VALIDATION_ERROR', 'Filing a dispute needs a wallet (or the payment header)', 0);
    const body = { transactionId: o.transactionId, reason: o.reason, ...(o.evidence ? { evidence: o.evidence } : {}) };
    return unwrap(this.api.POST('/api/v1/disputes', { body, headers }));
  }

  async respond(disputeId: string, agentId: string, response: string, evidence?: string) {
    const body = { response, ...(evidence ? { evidence } : {}) };
    const header = await this.sign(agentId, `POST /api/v1/disputes/${seg(disputeId)}/respond`);
    return unwrap(
      this.api.POST('/api/v1/disputes/{id}/respond', { params: { path: { id: disputeId } }, headers: header, body }),
    );
  }

  get(disputeId: string) {
    return unwrap(this.api.GET('/api/v1/disputes/{id}', { params: { path: { id: disputeId } } }));
  }

  forAgent(agentId: string, query: Page & { status?: 'pending' | 'responded' | 'resolved' } = {}) {
    return unwrap(this.api.GET('/api/v1/disputes/agent/{agentId}', { params: { path: { agentId }, query } }));
  }
}

/** Public reads: discovery, recommendations, reputation, analytics, chains. */
export class DiscoveryResource {
  constructor(
    private readonly api: Api,
    private readonly payerRead: PayerRead,
    private readonly hasWallet: () => boolean = () => false,
  ) {}

  /** `minUptime` (0..1): only agents whose health probes succeeded at least this share of the time over 24 h. */
  discover(query: Page & { capability?: string; maxPrice?: string; minReputation?: number; minUptime?: number } = {}) {
    return unwrap(this.api.GET('/api/v1/discover', { params: { query } }));
  }

  recommend(query: string, limit?: number) {
    return unwrap(
      this.api.GET('/api/v1/discover/recommend', { params: { query: { query, ...(limit ? { limit } : {}) } } }),
    );
  }

  reputation(agentId: string) {
    return unwrap(this.api.GET('/api/v1/reputation/{agentId}', { params: { path: { agentId } } }));
  }

  leaderboard(limit?: number) {
    return unwrap(this.api.GET('/api/v1/reputation/leaderboard', { params: { query: limit ? { limit } : {} } }));
  }

  analytics(agentId: string, period?: 'day' | 'week' | 'month' | 'all') {
    return unwrap(
      this.api.GET('/api/v1/analytics/agent/{agentId}', {
        params: { path: { agentId }, query: period ? { period } : {} },
      }),
    );
  }

  /** What a chain rooted at this call would need (price, sub-agent costs, depth). */
  budgetCheck(o: {
    targetAgentId: string;
    capabilityId: string;
    input: Record<string, unknown>;
    estimatedDepth?: number;
    includeSubAgentCosts?: boolean;
  }) {
    return unwrap(
      this.api.POST('/api/v1/chains/budget-check', {
        body: { ...o, estimatedDepth: o.estimatedDepth ?? 1, includeSubAgentCosts: o.includeSubAgentCosts ?? true },
      }),
    );
  }

  /**
   * A chain's status and trace tree, by chain id or root transaction id. Transaction ids are shown to
   * every reader; request ids only to a reader who may read the outputs: `asPayer` (this client's wallet,
   * which paid for the chain, signs the payer's read message) for all of them, or a chain token for its
   * holder's subtree. (A payment header shows none: the one that paid is public on chain.)
   */
  /**
   * A chain's status, totals and trace tree; node request ids only to its payer (`asPayer`: this client's wallet
   * signs) or a chain token's holder. `payment` (deprecated since 1.2.0): the header that paid for the root no
   * longer shows request ids (it can be rebuilt from chain data); it is read as `asPayer` when this client has a
   * wallet, else as a visitor.
   */
  async chain(
    chainId: string,
    reader: { asPayer?: boolean; chainToken?: string; /** @deprecated use asPayer */ payment?: Proof } = {},
  ) {
    const asPayer = reader.asPayer ?? (reader.payment !== undefined && this.hasWallet());
    const headers: Record<string, string> = {
      ...(asPayer ? (await this.payerRead()).headers : {}),
      ...(reader.chainToken ? { 'X-Chain-Token': reader.chainToken } : {}),
    };
    return unwrap(this.api.GET('/api/v1/chains/{id}', { params: { path: { id: chainId } }, headers }));
  }

  chainCost(chainId: string) {
    return unwrap(this.api.GET('/api/v1/chains/{id}/cost', { params: { path: { id: chainId } } }));
  }

  chainKeys() {
    return unwrap(this.api.GET('/api/v1/chains/keys'));
  }
}
