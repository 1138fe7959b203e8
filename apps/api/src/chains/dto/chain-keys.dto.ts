import { ApiProperty } from '@nestjs/swagger';

export class ChainKeyJwk {
  @ApiProperty({ example: 'OKP' }) kty!: 'OKP';
  @ApiProperty({ example: 'Ed25519' }) crv!: 'Ed25519';
  @ApiProperty({ description: 'Raw public key, base64url' }) x!: string;
}

export class ChainKeyResponse {
  @ApiProperty({ description: 'Key id: the first 16 hex characters of the sha256 of the raw public key' }) kid!: string;
  @ApiProperty({ example: 'Ed25519' }) alg!: 'Ed25519';
  @ApiProperty({ enum: ['current', 'previous'], description: 'current signs new tokens; previous keys still verify' })
  status!: 'current' | 'previous';
  @ApiProperty({ description: 'Raw 32-byte public key, base64' }) publicKey!: string;
  @ApiProperty({ type: ChainKeyJwk, description: "For node:crypto: createPublicKey({ key: jwk, format: 'jwk' })" })
  jwk!: ChainKeyJwk;
}

export class ChainKeysResponse {
  @ApiProperty({
    type: [ChainKeyResponse],
    description:
      'A token is `<base64url(payload JSON)>.<base64url(signature)>`; the Ed25519 signature is over the ASCII bytes of the payload part',
  })
  keys!: ChainKeyResponse[];
}
