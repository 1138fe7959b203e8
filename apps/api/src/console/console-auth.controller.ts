import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ConsoleSignIn } from '@app/agents';
import { ConsoleSessions, SESSION_COOKIE } from '@app/auth';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { prefixedId } from '../http/validation';
import {
  ConsoleSessionListResponse,
  ConsoleSessionResponse,
  SignInDto,
  SignInNonceResponse,
  toSessionResponse,
} from './console-auth.dto';
import { assertSameOrigin, sessionToken } from './session-cookie';

/**
 * Signing in to the console (docs/console.md): a wallet signs an EIP-4361 message and gets a
 * session for reads in an HTTP-only, same-site cookie. The session never authorizes a change:
 * withdrawals, agent changes, webhooks and disputes keep asking for the wallet's signature.
 */
@ApiTags('console')
@Controller('console')
export class ConsoleAuthController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly signIn: ConsoleSignIn,
  ) {}

  @Post('nonce')
  @HttpCode(200)
  @ApiOperation({ summary: 'A nonce for a sign-in message, with the domain and URI the message must name' })
  @ApiEnvelope(SignInNonceResponse)
  nonce(): SignInNonceResponse {
    const n = this.sessions.nonce();
    return { ...n, expiresAt: n.expiresAt.toISOString() };
  }

  @Post('sessions')
  @ApiOperation({
    summary:
      'Sign in: a signed EIP-4361 message becomes a read session (cookie agora_session, HTTP-only, SameSite=Strict)',
    description:
      'Only from this deployment’s origin (the Origin header). The message’s nonce is used once. 401 for a message or signature that does not check (details.reason), 403 for an agent grant not signed by the agent’s wallet.',
  })
  @ApiEnvelope(ConsoleSessionResponse, 201)
  @ApiErrors(400, 401, 403)
  async create(
    @Body() dto: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionResponse> {
    assertSameOrigin(req, this.sessions.origin);
    const { session, token } = await this.signIn.execute(dto.message, dto.signature, req.headers['user-agent']);
    res.cookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.sessions.origin.protocol === 'https:',
      path: '/',
      expires: session.expiresAt,
    });
    return toSessionResponse(session, session.id);
  }

  @Get('session')
  @ApiOperation({ summary: 'The session this request signed in with' })
  @ApiEnvelope(ConsoleSessionResponse)
  @ApiErrors(401)
  async current(@Req() req: Request): Promise<ConsoleSessionResponse> {
    const s = await this.sessions.current(sessionToken(req));
    return toSessionResponse(s, s.id);
  }

  @Get('sessions')
  @ApiOperation({ summary: "The signed-in wallet's sessions, newest first, revoked and expired ones included" })
  @ApiEnvelope(ConsoleSessionListResponse)
  @ApiErrors(401)
  async list(@Req() req: Request): Promise<ConsoleSessionListResponse> {
    const s = await this.sessions.current(sessionToken(req));
    return { sessions: (await this.sessions.list(s.wallet)).map((x) => toSessionResponse(x, s.id)) };
  }

  @Delete('sessions/:id')
  @HttpCode(204)
  @ApiOperation({ summary: "Revoke one of the signed-in wallet's sessions (its own included: that signs out)" })
  @ApiErrors(401, 403, 404)
  async revoke(@Param('id') id: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    assertSameOrigin(req, this.sessions.origin);
    const s = await this.sessions.current(sessionToken(req));
    const target = prefixedId(id, 'cs', 'id');
    await this.sessions.revoke(s.wallet, target);
    if (target === s.id) res.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
