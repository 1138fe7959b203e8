import { AppException, isUuid } from '@app/common';
import { parseSignInMessage } from './eip4361';

/** What a sign-in grants: reads as an agent (its registered wallet signs), or as a paying wallet. */
export type SignInGrant = { kind: 'agent'; agentId: string } | { kind: 'wallet' };

/** A session lasts at most this long after the message was issued. */
export const SIGN_IN_MAX_MS = 3_600_000;
/** Clock skew allowed on `issuedAt` (a wallet's clock a little ahead). */
const SKEW_MS = 60_000;
const AGENT_RESOURCE = /^agora:agent:([0-9a-f-]{36})$/i;

export interface CheckedSignIn {
  address: string;
  nonce: string;
  grant: SignInGrant;
  expiresAt: Date;
}

const refuse = (message: string, reason: string) => new AppException('UNAUTHORIZED', message, { reason });

/**
 * An EIP-4361 (Sign-In with Ethereum) message, checked for this deployment (docs/console.md):
 * `domain` its host, `uri` its origin, version 1, an `issuedAt` not in the future, an
 * `expirationTime` in the future and at most an hour after `issuedAt`, and exactly one resource
 * naming the grant (`agora:agent:<id>` or `agora:wallet`). The nonce and the signature are checked
 * by the caller.
 */
export function checkSignInMessage(message: string, origin: URL, nowMs: number): CheckedSignIn {
  if (message.length > 4_000 || message.includes('\0'))
    throw refuse('The sign-in message is not an EIP-4361 message', 'malformed');
  const m = parseSignInMessage(message);
  if (!m) throw refuse('The sign-in message is not an EIP-4361 message', 'malformed');
  if (m.domain !== origin.host || safeOrigin(m.uri) !== origin.origin)
    throw refuse(`The sign-in message must be for ${origin.host} (uri ${origin.origin})`, 'wrong_origin');
  const issued = m.issuedAt?.getTime();
  const expires = m.expirationTime?.getTime();
  if (issued === undefined || !Number.isFinite(issued) || issued > nowMs + SKEW_MS)
    throw refuse('The sign-in message needs an Issued At that is not in the future', 'issued_at');
  if (expires === undefined || !Number.isFinite(expires) || expires <= nowMs)
    throw refuse('The sign-in message has expired (or has no Expiration Time)', 'expired');
  if (expires - issued > SIGN_IN_MAX_MS)
    throw refuse('A sign-in lasts at most an hour after it was issued', 'too_long');
  if (m.notBefore && m.notBefore.getTime() > nowMs) throw refuse('The sign-in message is not valid yet', 'not_before');
  const resources = m.resources ?? [];
  if (resources.length !== 1)
    throw refuse('The sign-in message must name one grant: agora:agent:<id> or agora:wallet', 'grant');
  const agent = AGENT_RESOURCE.exec(resources[0]);
  let grant: SignInGrant;
  if (resources[0] === 'agora:wallet') grant = { kind: 'wallet' };
  else if (agent && isUuid(agent[1])) grant = { kind: 'agent', agentId: agent[1].toLowerCase() };
  else throw refuse('The sign-in message must name one grant: agora:agent:<id> or agora:wallet', 'grant');
  return { address: m.address.toLowerCase(), nonce: m.nonce, grant, expiresAt: new Date(expires) };
}

function safeOrigin(uri: string): string | null {
  try {
    return new URL(uri).origin;
  } catch {
    return null;
  }
}
