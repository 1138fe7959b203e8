import {
  applyDecorators,
  CanActivate,
  createParamDecorator,
  ExecutionContext,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiAgentSigned } from '../http/security';
import type { Request } from 'express';
import { AppException, isUuid, ValidationException } from '@app/common';
import {
  ConsoleSessions,
  RecordUnboundSignature,
  SIGNATURE_HEADER,
  WALLET_HEADER,
  WalletAuthContext,
  WalletAuthService,
} from '@app/auth';
import { GetAgentWallet } from '@app/agents';
import { sessionToken } from '../console/session-cookie';
import { bodySha256 } from '../http/json-body.middleware';

const AGENT_SOURCE = 'agora:wallet-auth-agent-source';
const SIGNATURE_OPTIONAL = 'agora:wallet-auth-optional';

/** Where the route names the agent the caller must own. */
export type AgentSource = { param: string } | { body: string } | null;

type AuthedRequest = Request & { walletAuth?: WalletAuthContext };

/**
 * Checks X-Agent-Wallet + X-Agent-Signature (docs/architecture.md, "Wallet authentication"): the
 * signature is fresh, canonical and made by the agent's registered wallet, the agent is the one the
 * route acts on, and a bound message was signed for this request (method, path and, when it names
 * one, body hash). Reads also take the agent wallet's console session. An unbound message is recorded
 * here, before anything else is done (seen on a read; spent on a change); a bound message's single use
 * is enforced later, inside the change's transaction.
 */
@Injectable()
export class WalletAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly walletAuth: WalletAuthService,
    private readonly agentWallet: GetAgentWallet,
    private readonly sessions: ConsoleSessions,
    private readonly unbound: RecordUnboundSignature,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const source = this.reflector.get<AgentSource>(AGENT_SOURCE, ctx.getHandler()) ?? null;
    const routeAgentId = this.routeAgentId(req, source);
    const optional = this.reflector.get<boolean>(SIGNATURE_OPTIONAL, ctx.getHandler()) === true;
    if (optional && !req.header(WALLET_HEADER) && !req.header(SIGNATURE_HEADER)) {
      // A read that also answers the public: without signature headers it is anonymous, unless the
      // console session is the agent's (a session that is not gets the public view, never a 403).
      await this.bySession(req, routeAgentId).catch(() => false);
      return true;
    }
    if (await this.bySession(req, routeAgentId)) return true;
    // The path as the client sent it (what it signed), without the query string.
    const path = req.originalUrl.split('?')[0];
    const step1 = this.walletAuth.parse(
      { wallet: req.header(WALLET_HEADER), signature: req.header(SIGNATURE_HEADER) },
      { method: req.method, path, bodySha256: bodySha256(req) },
    );
    if (routeAgentId !== null && routeAgentId !== step1.agentId.toLowerCase()) {
      throw new AppException('FORBIDDEN', `${SIGNATURE_HEADER} was made for another agent`);
    }
    const wallet = await this.agentWallet.execute(step1.agentId.toLowerCase());
    const auth = this.walletAuth.verify({ ...step1, agentId: step1.agentId.toLowerCase() }, wallet);
    req.walletAuth = await this.unbound.execute(auth);
    return true;
  }

  /**
   * A read (GET) sent without signature headers but with a console session signed in as the
   * agent: the session stands for the unbound read message. Changes never take this path.
   */
  private async bySession(req: AuthedRequest, routeAgentId: string | null): Promise<boolean> {
    const token = sessionToken(req);
    if (req.method !== 'GET' || !token || req.header(WALLET_HEADER) || req.header(SIGNATURE_HEADER)) return false;
    const session = await this.sessions.current(token);
    if (routeAgentId !== null && session.agentId !== null && routeAgentId !== session.agentId)
      throw new AppException('FORBIDDEN', 'This console session was signed in for another agent');
    const wallet = session.agentId ? await this.agentWallet.execute(session.agentId) : '';
    req.walletAuth = this.walletAuth.fromSession(session, wallet);
    return true;
  }

  private routeAgentId(req: AuthedRequest, source: AgentSource): string | null {
    if (source === null) return null;
    const [where, name] = 'param' in source ? ['param', source.param] : ['body', source.body];
    const value: unknown =
      where === 'param' ? req.params[name] : (req.body as Record<string, unknown> | undefined)?.[name];
    if (!isUuid(value)) throw new ValidationException([{ field: name, messages: [`${name} must be a UUID`] }]);
    return value.toLowerCase();
  }
}

/** Route needs a wallet signature from the agent named by `source`. */
export function WalletSigned(source: AgentSource): MethodDecorator {
  return applyDecorators(SetMetadata(AGENT_SOURCE, source), UseGuards(WalletAuthGuard), ApiAgentSigned());
}

/**
 * A read that answers everyone, and more to the agent named by `source`: with its wallet's signature (or
 * its console session) `@MaybeWalletAuth()` is the proof, checked as `WalletSigned`'s (a bad one is
 * refused, not ignored); without signature headers it is null.
 */
export function WalletSignedOptional(source: AgentSource): MethodDecorator {
  return applyDecorators(
    SetMetadata(AGENT_SOURCE, source),
    SetMetadata(SIGNATURE_OPTIONAL, true),
    UseGuards(WalletAuthGuard),
    ApiAgentSigned(),
    ApiSecurity({}),
  );
}

export const MaybeWalletAuth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): WalletAuthContext | null =>
    ctx.switchToHttp().getRequest<AuthedRequest>().walletAuth ?? null,
);

export const WalletAuth = createParamDecorator((_: unknown, ctx: ExecutionContext): WalletAuthContext => {
  const auth = ctx.switchToHttp().getRequest<AuthedRequest>().walletAuth;
  if (!auth) throw new Error('WalletAuth used on a route without @WalletSigned');
  return auth;
});
