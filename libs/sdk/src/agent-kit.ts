import { createPublicKey, KeyObject, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgoraClient } from './client';
import type { ExecuteResult } from './execute-types';
import { AgoraError, AuthenticationError } from './errors';
import { isAgoraSignatureHeader, platformPublicKey, verifyAgoraSignature } from './platform-signature';

export interface ChainContext {
  chainId: string;
  depth: number;
  remainingBudget: string;
  /** The token for the next sub-call: after each sequential sub-call, the child token the platform answered. */
  token: string;
}

/** A call from the platform whose X-Agora-Signature verified, made for this kit's agent. */
export interface AgentCall {
  agentId: string;
  requestId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  chain: ChainContext | null;
  body: Record<string, unknown>;
}

export interface AgentKitOptions {
  /** The agora API the calls come from (its keys are read from there). */
  platformUrl: string;
  /**
   * The id this agent is registered under (required). A call is accepted only when it was signed
   * for this id and its body names it: a call the platform made to another agent, relayed here, is
   * refused. One endpoint serving several registered agents keeps one kit per id.
   */
  agentId: string;
  /** How far a signature's time may be from now, either side (default 300 s). */
  maxSkewS?: number;
  /** How long fetched keys are trusted before they are read again (default 5 min; a failing signature reads them again once they are 30 s old). */
  keyTtlMs?: number;
  /** Accept an http:// platformUrl off loopback (keys read in clear could be swapped on the way). Default false. */
  allowInsecureHttp?: boolean;
}

type KeyCache = { at: number; keys: KeyObject[] };
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_SEEN = 100_000;

/**
 * What an agent needs from agora: check that a call came from the platform for this agent
 * (X-Agora-Signature, Ed25519 over "agora-call.v2.<t>.<agentId>.<requestId>.<sha256 hex of body>",
 * keys from GET /api/v1/platform/keys), read the chain it runs in (X-Chain-Token, checked against
 * GET /api/v1/chains/keys) and pay other agents from that chain's budget.
 */
export class AgentKit {
  readonly client: AgoraClient;
  private readonly cache: Record<'platform' | 'chain', KeyCache | null> = { platform: null, chain: null };
  private readonly inFlight: Record<'platform' | 'chain', Promise<KeyCache> | null> = { platform: null, chain: null };
  /** Signatures already accepted, until they could no longer pass the skew check: a captured call cannot be replayed. */
  private readonly seen = new Map<string, number>();

  /** The agent this kit accepts calls for (lower case, as the platform writes it). */
  readonly agentId: string;

  constructor(private readonly options: AgentKitOptions) {
    if (typeof options.agentId !== 'string' || !UUID.test(options.agentId)) {
      throw new Error(
        'AgentKit needs agentId: the id (a UUID) this agent is registered under; calls signed for any other agent are refused',
      );
    }
    this.agentId = options.agentId.toLowerCase();
    const url = new URL(options.platformUrl);
    if (url.protocol !== 'https:' && !LOOPBACK.has(url.hostname) && !options.allowInsecureHttp) {
      throw new Error(`platformUrl must be https (the platform's keys are read from it): ${options.platformUrl}`);
    }
    this.client = new AgoraClient({ baseUrl: options.platformUrl });
  }

  /**
   * Verifies a call (headers and the exact body bytes): signed by the platform as a call (not an
   * attestation or a callback), for this agent (the signed text and the body's `agentId`), within the
   * clock skew, and not seen before. Throws AuthenticationError otherwise.
   */
  async verifyCall(
    headers: Record<string, string | string[] | undefined>,
    rawBody: string | Buffer,
  ): Promise<AgentCall> {
    const header = first(headers['x-agora-signature']);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody.toString()) as Record<string, unknown>;
    } catch {
      throw new AuthenticationError('UNAUTHORIZED', 'The call body is not JSON', 401);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      throw new AuthenticationError('UNAUTHORIZED', 'The call body is not a JSON object', 401);
    const requestId = typeof body.requestId === 'string' ? body.requestId : '';
    if (!isAgoraSignatureHeader(header) || !requestId)
      throw new AuthenticationError('UNAUTHORIZED', 'X-Agora-Signature is missing or malformed', 401);
    if (typeof body.agentId !== 'string' || body.agentId.toLowerCase() !== this.agentId) {
      throw new AuthenticationError(
        'UNAUTHORIZED',
        `This call is not for agent ${this.agentId} (the body names ${JSON.stringify(body.agentId ?? null)})`,
        401,
      );
    }
    const skewS = this.options.maxSkewS ?? 300;
    const ok = await this.withKeys('platform', (keys) =>
      verifyAgoraSignature(header, 'call', [this.agentId, requestId], rawBody, keys, skewS),
    );
    if (!ok) {
      throw new AuthenticationError(
        'UNAUTHORIZED',
        `X-Agora-Signature is not the platform's signature of a call to agent ${this.agentId} (or is outside the allowed clock skew)`,
        401,
      );
    }
    if (!this.firstUse(header, skewS))
      throw new AuthenticationError('UNAUTHORIZED', 'This signed call was already received (a replay)', 401);
    const chain = body.chain as Omit<ChainContext, 'token'> | undefined;
    const token = first(headers['x-chain-token']);
    if (chain && token) {
      const claims = await this.verifyChainToken(token);
      if (!claims || claims.cid !== chain.chainId)
        throw new AuthenticationError(
          'CHAIN_TOKEN_INVALID',
          "X-Chain-Token is not the platform's token for this chain, or has expired",
          401,
        );
    }
    return {
      agentId: this.agentId,
      requestId,
      capabilityId: String(body.capabilityId ?? ''),
      input: (body.input ?? {}) as Record<string, unknown>,
      chain:
        chain && token
          ? { chainId: chain.chainId, depth: chain.depth, remainingBudget: chain.remainingBudget, token }
          : null,
      body,
    };
  }

  /** The claims of a chain token signed by the platform and not expired, or null. */
  async verifyChainToken(token: string): Promise<Record<string, unknown> | null> {
    const [payload, signature] = token.split('.');
    if (!payload || !signature) return null;
    const ok = await this.withKeys('chain', (keys) =>
      keys.some((k) => verify(null, Buffer.from(payload), k, Buffer.from(signature, 'base64url'))),
    );
    if (!ok) return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    return typeof claims.exp === 'number' && claims.exp > Date.now() ? claims : null;
  }

  /**
   * Calls another agent from the budget of the chain `call` runs in. Sequential calls go on with the
   * child token each answer carries; pass `token` (the call's own) to run calls in parallel.
   */
  async subCall(
    call: AgentCall,
    o: { targetAgentId: string; capabilityId: string; input: Record<string, unknown>; token?: string },
  ): Promise<ExecuteResult> {
    if (!call.chain) throw new AgoraError('CHAIN_DISABLED', 'This call does not run inside an execution chain', 0);
    const result = await this.client.execute({
      targetAgentId: o.targetAgentId,
      capabilityId: o.capabilityId,
      input: o.input,
      chainToken: o.token ?? call.chain.token,
    });
    const chain = (result as { chain?: { childToken?: string; remainingBudget?: string } }).chain;
    if (!o.token && chain?.childToken) call.chain.token = chain.childToken;
    if (chain?.remainingBudget) call.chain.remainingBudget = chain.remainingBudget;
    return result;
  }

  private firstUse(signature: string, skewS: number): boolean {
    const now = Date.now();
    if ((this.seen.get(signature) ?? 0) > now) return false;
    if (this.seen.size >= MAX_SEEN) {
      for (const [k, until] of this.seen) if (until <= now || this.seen.size >= MAX_SEEN) this.seen.delete(k);
    }
    this.seen.set(signature, now + 2 * skewS * 1000);
    return true;
  }

  /**
   * Tests with the cached keys. They are read again when older than the TTL, or when they fail and
   * are more than 30 s old (a rotated key): forged calls cannot make the agent read the platform's
   * keys on every request. One read at a time; if it fails, the keys held are used.
   */
  private async withKeys(kind: 'platform' | 'chain', test: (keys: KeyObject[]) => boolean): Promise<boolean> {
    const cached = this.cache[kind];
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < (this.options.keyTtlMs ?? 300_000)) {
      if (test(cached.keys)) return true;
      if (age < 30_000) return false;
    }
    const fresh = await this.refresh(kind).catch((err: unknown) => {
      if (cached) return cached;
      throw err;
    });
    return test(fresh.keys);
  }

  private refresh(kind: 'platform' | 'chain'): Promise<KeyCache> {
    this.inFlight[kind] ??= this.fetchKeys(kind)
      .then((keys) => (this.cache[kind] = { at: Date.now(), keys }))
      .finally(() => (this.inFlight[kind] = null));
    return this.inFlight[kind];
  }

  private async fetchKeys(kind: 'platform' | 'chain'): Promise<KeyObject[]> {
    if (kind === 'platform') {
      const { keys } = await this.client.platformKeys();
      return keys.map((k) => platformPublicKey(k.publicKey));
    }
    const { keys } = (await this.client.discovery.chainKeys()) as { keys: { jwk: Record<string, unknown> }[] };
    return keys.map((k) => createPublicKey({ key: k.jwk as never, format: 'jwk' }));
  }
}

/** The verified call, set on the request by `agoraMiddleware`. */
export type AgoraRequest = IncomingMessage & { agora?: AgentCall; body?: unknown };

/**
 * Express (or plain node:http) middleware: reads the raw body, verifies X-Agora-Signature (and the
 * chain token), and sets `req.agora` and `req.body`; answers 401 to anything not from the platform.
 * Mount it before any body parser.
 */
export function agoraMiddleware(kit: AgentKit, limitBytes = 1_048_576) {
  return (req: AgoraRequest, res: ServerResponse, next: (err?: unknown) => void): void => {
    const answer = (status: number, error: string) => {
      res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ error }));
    };
    if (req.readableEnded || req.body !== undefined) {
      return next(new Error('agoraMiddleware needs the raw body: mount it before any body parser'));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= limitBytes) chunks.push(c);
      else if (!tooLarge) {
        tooLarge = true;
        chunks.length = 0;
        answer(413, `The call body is over ${limitBytes} bytes`);
      }
    });
    req.on('end', () => {
      if (tooLarge) return;
      kit.verifyCall(req.headers, Buffer.concat(chunks)).then(
        (call) => {
          req.agora = call;
          req.body = call.body;
          next();
        },
        (err: unknown) => (err instanceof AuthenticationError ? answer(401, err.message) : next(err)),
      );
    });
  };
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
