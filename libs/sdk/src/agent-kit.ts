import { createHash, createPublicKey, KeyObject, verify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgoraClient, ExecuteResult } from './client';
import { AgoraError, AuthenticationError } from './errors';

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEADER = /^t=(\d{1,12}),ed25519=([A-Za-z0-9+/=]{1,200})$/;

/** An Ed25519 public key from GET /api/v1/platform/keys (raw 32 bytes, base64). */
export function platformPublicKey(publicKeyBase64: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(publicKeyBase64, 'base64')]), format: 'der', type: 'spki' });
}

/**
 * Whether `header` (`t=<unix s>,ed25519=<base64>`) signs "<t>.<requestId>.<sha256 hex of body>" with
 * one of `keys`, within `maxSkewS` of now. The format of X-Agora-Signature on calls to agents and of
 * a dispute's platform attestation.
 */
export function verifyAgoraSignature(header: string | undefined, requestId: string, body: string | Buffer, keys: (KeyObject | string)[], maxSkewS = 300): boolean {
  const m = HEADER.exec(header ?? '');
  if (!m || !requestId) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > maxSkewS) return false;
  const message = Buffer.from(`${m[1]}.${requestId}.${createHash('sha256').update(body).digest('hex')}`);
  const signature = Buffer.from(m[2], 'base64');
  return keys.some((k) => verify(null, message, typeof k === 'string' ? platformPublicKey(k) : k, signature));
}

export interface ChainContext {
  chainId: string;
  depth: number;
  remainingBudget: string;
  /** The token for the next sub-call: after each sequential sub-call, the child token the platform answered. */
  token: string;
}

/** A call from the platform whose X-Agora-Signature verified. */
export interface AgentCall {
  requestId: string;
  capabilityId: string;
  input: Record<string, unknown>;
  chain: ChainContext | null;
  body: Record<string, unknown>;
}

export interface AgentKitOptions {
  /** The agora API the calls come from (its keys are read from there). */
  platformUrl: string;
  /** How far a signature's time may be from now, either side (default 300 s). */
  maxSkewS?: number;
  /** How long fetched keys are trusted before they are read again (default 5 min; an unknown signature forces a read). */
  keyTtlMs?: number;
}

/**
 * What an agent needs from agora: check that a call came from the platform (X-Agora-Signature,
 * Ed25519 over "<t>.<requestId>.<sha256(body)>", keys from GET /api/v1/platform/keys), read the
 * chain it runs in (X-Chain-Token, checked against GET /api/v1/chains/keys) and pay other agents
 * from that chain's budget.
 */
export class AgentKit {
  readonly client: AgoraClient;
  private platformKeys: { at: number; keys: KeyObject[] } | null = null;
  private chainKeys: { at: number; keys: KeyObject[] } | null = null;

  constructor(private readonly options: AgentKitOptions) {
    this.client = new AgoraClient({ baseUrl: options.platformUrl });
  }

  /** Verifies a call (headers and the exact body bytes); throws AuthenticationError when it is not the platform's. */
  async verifyCall(headers: Record<string, string | string[] | undefined>, rawBody: string | Buffer): Promise<AgentCall> {
    const header = first(headers['x-agora-signature']);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawBody.toString()) as Record<string, unknown>;
    } catch {
      throw new AuthenticationError('UNAUTHORIZED', 'The call body is not JSON', 401);
    }
    const requestId = typeof body.requestId === 'string' ? body.requestId : '';
    if (!HEADER.test(header ?? '') || !requestId) throw new AuthenticationError('UNAUTHORIZED', 'X-Agora-Signature is missing or malformed', 401);
    const ok = await this.withKeys('platform', (keys) => verifyAgoraSignature(header, requestId, rawBody, keys, this.options.maxSkewS ?? 300));
    if (!ok) throw new AuthenticationError('UNAUTHORIZED', 'X-Agora-Signature does not verify with the platform keys (or is outside the allowed clock skew)', 401);
    const chain = body.chain as Omit<ChainContext, 'token'> | undefined;
    const token = first(headers['x-chain-token']);
    if (chain && token && !(await this.verifyChainToken(token))) throw new AuthenticationError('CHAIN_TOKEN_INVALID', 'X-Chain-Token is not signed by the platform', 401);
    return {
      requestId,
      capabilityId: String(body.capabilityId ?? ''),
      input: (body.input ?? {}) as Record<string, unknown>,
      chain: chain && token ? { chainId: chain.chainId, depth: chain.depth, remainingBudget: chain.remainingBudget, token } : null,
      body,
    };
  }

  /** The claims of a chain token signed by the platform, or null. */
  async verifyChainToken(token: string): Promise<Record<string, unknown> | null> {
    const [payload, signature] = token.split('.');
    if (!payload || !signature) return null;
    const ok = await this.withKeys('chain', (keys) => keys.some((k) => verify(null, Buffer.from(payload), k, Buffer.from(signature, 'base64url'))));
    return ok ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>) : null;
  }

  /**
   * Calls another agent from the budget of the chain `call` runs in. Sequential calls go on with the
   * child token each answer carries; pass `token` (the call's own) to run calls in parallel.
   */
  async subCall(call: AgentCall, o: { targetAgentId: string; capabilityId: string; input: Record<string, unknown>; token?: string }): Promise<ExecuteResult> {
    if (!call.chain) throw new AgoraError('CHAIN_DISABLED', 'This call does not run inside an execution chain', 0);
    const result = await this.client.execute({ targetAgentId: o.targetAgentId, capabilityId: o.capabilityId, input: o.input, chainToken: o.token ?? call.chain.token });
    const chain = (result as { chain?: { childToken?: string; remainingBudget?: string } }).chain;
    if (!o.token && chain?.childToken) call.chain.token = chain.childToken;
    if (chain?.remainingBudget) call.chain.remainingBudget = chain.remainingBudget;
    return result;
  }

  /**
   * Tests with the cached keys; reads them again when they are older than the TTL, or when they fail
   * and were read more than 30 s ago (a rotated key), so forged calls cannot make the agent read the
   * platform's keys on every request.
   */
  private async withKeys(kind: 'platform' | 'chain', test: (keys: KeyObject[]) => boolean): Promise<boolean> {
    const ttl = this.options.keyTtlMs ?? 300_000;
    const cached = kind === 'platform' ? this.platformKeys : this.chainKeys;
    const age = cached ? Date.now() - cached.at : Infinity;
    if (cached && age < ttl && (test(cached.keys) || age < 30_000)) return test(cached.keys);
    const fresh = { at: Date.now(), keys: await this.fetchKeys(kind) };
    if (kind === 'platform') this.platformKeys = fresh;
    else this.chainKeys = fresh;
    return test(fresh.keys);
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
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limitBytes) req.destroy();
      else chunks.push(c);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      kit.verifyCall(req.headers, raw).then(
        (call) => {
          req.agora = call;
          req.body = call.body;
          next();
        },
        (err: unknown) => {
          if (!(err instanceof AuthenticationError)) return next(err);
          res.writeHead(401, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: err.message }));
        },
      );
    });
  };
}

function first(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
