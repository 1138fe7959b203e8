import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NestedDto } from '../../http/opaque-json';
import { IsPlainObject } from '../../http/validators';

export class SignedReceiptResponse {
  @ApiProperty({ enum: ['jws', 'eip712'] }) format: 'jws' | 'eip712';
  @ApiProperty({
    description:
      'jws: the compact JWS (EdDSA; its kid resolves through /.well-known/did.json); eip712: the 65-byte signature (0x hex)',
  })
  signature: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "eip712 only: the x402 offer-receipt extension's v1 receipt payload it signs (a JWS carries its own)",
  })
  payload?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      "eip712 only: {payload, signature}, agora's receipt payload (the delivery: fees, hashes) signed by the same key under agora's own EIP-712 domain",
  })
  delivery?: Record<string, unknown>;
}

export class PlatformKeyResponse {
  @ApiProperty({ example: 'agora-1' })
  kid: string;
  @ApiProperty({ example: 'Ed25519' })
  alg: string;
  @ApiProperty({ description: 'Raw 32-byte Ed25519 public key, base64' })
  publicKey: string;
}

export class ReceiptKeyJwk {
  @ApiProperty({ example: 'OKP' }) kty: string;
  @ApiProperty({ example: 'Ed25519' }) crv: string;
  @ApiProperty({ description: 'The public key, base64url' }) x: string;
}

export class ReceiptKeyResponse {
  @ApiProperty({ description: "The JWS kid: a verification method of this deployment's did:web document" })
  kid: string;
  @ApiProperty({ example: 'EdDSA', description: 'The JWS algorithm' })
  alg: string;
  @ApiProperty({ type: ReceiptKeyJwk }) publicKeyJwk: ReceiptKeyJwk;
  @ApiProperty({ description: 'The EIP-712 signer of the same key set (secp256k1), checksummed' })
  address: string;
  @ApiProperty({ description: 'True for the key that signs now; the others signed earlier receipts and still verify' })
  current: boolean;
}

export class PlatformKeysResponse {
  @ApiProperty({ type: [PlatformKeyResponse] })
  keys: PlatformKeyResponse[];
  @ApiProperty({
    enum: ['jws', 'eip712', 'none'],
    description: 'The format offers and receipts are signed in here (none: they are not signed)',
  })
  receiptFormat: string;
  @ApiProperty({
    type: [ReceiptKeyResponse],
    description: 'Keys of the signed offers and receipts (x402 offer-receipt), the current one first',
  })
  receiptKeys: ReceiptKeyResponse[];
}

/** A receipt as a client holds it (bounded: a JWS receipt is under 2 KB). */
export class SignedReceiptDto {
  @ApiProperty({ enum: ['jws', 'eip712'] })
  @IsIn(['jws', 'eip712'])
  format: 'jws' | 'eip712';
  @ApiProperty({ maxLength: 8192 })
  @IsString()
  @MaxLength(8192)
  signature: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'eip712 only: the signed payload' })
  @IsOptional()
  @IsPlainObject()
  payload?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "eip712 only: agora's signed delivery statement ({payload, signature})",
  })
  @IsOptional()
  @IsPlainObject()
  delivery?: Record<string, unknown>;
}

export class VerifyReceiptDto {
  @ApiProperty({
    type: SignedReceiptDto,
    description: 'The receipt as received (`extensions["offer-receipt"].info.receipt` of PAYMENT-RESPONSE)',
  })
  @IsDefined()
  @IsObject()
  @NestedDto(() => SignedReceiptDto)
  receipt: SignedReceiptDto;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The output received: checked against the receipt's contentHash (version 3: with `salt`)",
  })
  @IsOptional()
  @IsPlainObject()
  output?: Record<string, unknown>;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "The input sent: checked against the receipt's inputHash (version 3: with `salt`)",
  })
  @IsOptional()
  @IsPlainObject()
  input?: Record<string, unknown>;
  @ApiPropertyOptional({
    maxLength: 64,
    description:
      "The request id the payer holds: checked against the receipt's (version 4 states only its commitment, " +
      '`requestCommitment`, HMAC-SHA256 keyed with `salt` of its JSON string: checking it needs `salt`, 400 without)',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  requestId?: string;
  @ApiPropertyOptional({
    pattern: '^[0-9a-f]{64}$',
    description:
      "The receipt's salt (`receiptSalt` of the paid answer, given to the payer only): a version 3 or 4 " +
      "receipt's hashes (and version 4's request commitment) are HMAC-SHA256 keyed with it, so checking an output, " +
      'input or request id against one needs it (400 without)',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[0-9a-f]{64}$/, { message: 'salt must be 64 lowercase hex characters' })
  salt?: string;
}

export class ReceiptVerdictKey {
  @ApiProperty() kid: string;
  @ApiProperty() address: string;
  @ApiProperty({ description: 'False: a retired key, still published' }) current: boolean;
}

export class VerifyReceiptResponse {
  @ApiProperty() valid: boolean;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: [
      'malformed',
      'not_a_receipt',
      'unknown_key',
      'bad_signature',
      'content_mismatch',
      'input_mismatch',
      'request_mismatch',
    ],
  })
  reason: string | null;
  @ApiProperty({ nullable: true, type: String, enum: ['jws', 'eip712'] }) format: string | null;
  @ApiProperty({ nullable: true, type: ReceiptVerdictKey }) key: ReceiptVerdictKey | null;
  @ApiProperty({
    nullable: true,
    type: 'object',
    additionalProperties: true,
    description: 'The signed payload (version 4: the request id only as `requestCommitment`, never in plain)',
  })
  payload: Record<string, unknown> | null;
}
