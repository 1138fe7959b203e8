import { createHash, randomBytes } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { verifyMessage } from 'ethers';
import { AppException, Clock, newId, sameWallet } from '@app/common';
import { AppConfig } from '@app/config';
import { PlatformSecrets } from '../platform-secrets';
import { ConsoleSessionRow, ConsoleSessionsRepository } from './console-sessions.repository';
import { checkSignInMessage, CheckedSignIn } from './sign-in-message';
import { SignInNonces } from './sign-in-nonce';

/** The cookie that carries a console session. */
export const SESSION_COOKIE = 'agora_session';
const SIGNATURE = /^0x[0-9a-fA-F]{130}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Console sessions (docs/console.md, "Signing in"): nonces handed out without storage, an
 * EIP-4361 message checked for this origin and signed by its address, its nonce used once, and a
 * session for reads whose token goes in an HTTP-only cookie (only its hash is stored).
 */
@Injectable()
export class ConsoleSessions implements OnModuleInit {
  private signInNonces: SignInNonces | null = null;
  readonly origin: URL;

  constructor(
    private readonly repo: ConsoleSessionsRepository,
    private readonly clock: Clock,
    private readonly secrets: PlatformSecrets,
    config: AppConfig,
  ) {
    this.origin = new URL(config.publicBaseUrl);
  }

  /** The nonces' own key (made once, shared by every process): read at start. */
  async onModuleInit(): Promise<void> {
    this.signInNonces = new SignInNonces(await this.secrets.get('console-sign-in'));
  }

  private get nonces(): SignInNonces {
    if (!this.signInNonces) throw new Error('ConsoleSessions used before its module was initialized');
    return this.signInNonces;
  }

  nonce(): { nonce: string; expiresAt: Date; domain: string; uri: string } {
    return { ...this.nonces.issue(this.clock.nowMs()), domain: this.origin.host, uri: this.origin.origin };
  }

  /** The message checked and its signature verified: who signed it, and what for. */
  check(message: string, signature: string): CheckedSignIn & { nonceExpiresAt: Date } {
    const now = this.clock.nowMs();
    const checked = checkSignInMessage(message, this.origin, now);
    const nonceExpiresAt = this.nonces.check(checked.nonce, now);
    if (!nonceExpiresAt)
      throw new AppException('UNAUTHORIZED', 'The nonce is not one this server gave, or it expired', {
        reason: 'nonce',
      });
    let signer: string | null = null;
    try {
      signer = SIGNATURE.test(signature) ? verifyMessage(message, signature) : null;
    } catch {
      signer = null;
    }
    if (!signer || !sameWallet(signer, checked.address))
      throw new AppException('UNAUTHORIZED', 'The signature is not the message address’s', { reason: 'signature' });
    return { ...checked, nonceExpiresAt };
  }

  /** Opens the session (its nonce used once): the view and the cookie's token. */
  async open(
    s: CheckedSignIn & { nonceExpiresAt: Date },
    userAgent: string | undefined,
  ): Promise<{ session: ConsoleSessionRow; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const row = {
      id: newId('cs'),
      wallet: s.address,
      agentId: s.grant.kind === 'agent' ? s.grant.agentId : null,
      origin: this.origin.origin,
      userAgent: userAgent?.replace(/[^\x20-\x7e]/g, '').slice(0, 200) || null,
      expiresAt: s.expiresAt,
    };
    const opened = await this.repo.open({
      ...row,
      tokenHash: hashToken(token),
      nonce: s.nonce,
      nonceExpiresAt: s.nonceExpiresAt,
    });
    if (!opened)
      throw new AppException('UNAUTHORIZED', 'This sign-in message was used already; sign a new one', {
        reason: 'nonce_used',
      });
    return { session: { ...row, createdAt: this.clock.now(), revokedAt: null }, token };
  }

  /** The session of a cookie's token: UNAUTHORIZED without one, or when it expired or was revoked. */
  async current(token: string | undefined): Promise<ConsoleSessionRow> {
    const row = token && token.length <= 100 ? await this.repo.live(hashToken(token), this.clock.now()) : null;
    if (!row) throw new AppException('UNAUTHORIZED', 'Sign in to the console first (no live session)');
    return row;
  }

  list(wallet: string): Promise<ConsoleSessionRow[]> {
    return this.repo.listOf(wallet);
  }

  async revoke(wallet: string, id: string): Promise<void> {
    if (!(await this.repo.revoke(wallet, id, this.clock.now())))
      throw new AppException('NOT_FOUND', `No live session ${id} of this wallet`);
  }
}
