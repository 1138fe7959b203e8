import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length, Matches } from 'class-validator';
import type { ConsoleSessionRow } from '@app/auth';

export class SignInDto {
  @ApiProperty({
    description:
      'An EIP-4361 message for this deployment: domain its host, URI its origin, version 1, the nonce of POST /console/nonce, Issued At, an Expiration Time at most an hour after it, and one resource naming the grant: agora:agent:<agentId> (signed by that agent’s wallet) or agora:wallet',
  })
  @IsString()
  @Length(1, 4000)
  message: string;

  @ApiProperty({ example: '0x…', description: "The message's address's personal_sign (EIP-191) signature" })
  @IsString()
  @Matches(/^0x[0-9a-fA-F]{130}$/, { message: 'signature must be a 65-byte hex signature' })
  signature: string;
}

export class SignInNonceResponse {
  @ApiProperty({ description: 'Put it in the message; good for 10 minutes, once' }) nonce: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ example: 'agora.example.com', description: "The message's domain" }) domain: string;
  @ApiProperty({ example: 'https://agora.example.com', description: "The message's URI" }) uri: string;
}

export class ConsoleSessionResponse {
  @ApiProperty({ example: 'cs_3s0Gm1uQk0aZx1bq' }) id: string;
  @ApiProperty({ description: 'Lower-case address that signed in' }) wallet: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'uuid',
    description: 'Signed in as this agent (else as a wallet)',
  })
  agentId: string | null;
  @ApiProperty() origin: string;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) expiresAt: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) revokedAt: string | null;
  @ApiProperty({ description: "This request's own session" }) current: boolean;
}

export class ConsoleSessionListResponse {
  @ApiProperty({ type: [ConsoleSessionResponse], description: 'Newest first, at most 100' })
  sessions: ConsoleSessionResponse[];
}

export function toSessionResponse(s: ConsoleSessionRow, currentId: string | null): ConsoleSessionResponse {
  return {
    id: s.id,
    wallet: s.wallet,
    agentId: s.agentId,
    origin: s.origin,
    userAgent: s.userAgent,
    createdAt: new Date(s.createdAt).toISOString(),
    expiresAt: new Date(s.expiresAt).toISOString(),
    revokedAt: s.revokedAt ? new Date(s.revokedAt).toISOString() : null,
    current: s.id === currentId,
  };
}
