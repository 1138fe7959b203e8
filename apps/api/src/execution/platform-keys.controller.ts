import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlatformSigner } from '@app/outbound';
import { ApiEnvelope } from '../http/api-envelope.decorator';
import { ReceiptSigner } from '@app/x402';
import { PlatformKeysResponse } from './dto/receipts.dto';

/**
 * The platform's public keys, for agents verifying X-Agora-Signature. It left ExecutionController
 * unchanged in the API: same route, tag and operation id (pinned, so clients generated from
 * docs/openapi.json keep their method name).
 */
@ApiTags('execution')
@Controller()
export class PlatformKeysController {
  constructor(
    private readonly signer: PlatformSigner,
    private readonly receipts: ReceiptSigner,
  ) {}

  @Get('platform/keys')
  @ApiOperation({
    operationId: 'ExecutionController_keys',
    summary:
      'Public keys: X-Agora-Signature on calls from the platform, and the signed x402 offers and receipts (current first)',
  })
  @ApiEnvelope(PlatformKeysResponse)
  keys(): PlatformKeysResponse {
    return {
      keys: [{ kid: this.signer.keyId, alg: 'Ed25519', publicKey: this.signer.publicKey }],
      receiptFormat: this.receipts.format,
      receiptKeys: this.receipts.keys.map((k) => ({
        kid: k.kid,
        alg: 'EdDSA',
        publicKeyJwk: k.publicJwk,
        address: k.address,
        current: k.current,
      })),
    };
  }
}
