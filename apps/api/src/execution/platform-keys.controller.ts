import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PlatformSigner } from '@app/outbound';
import { ApiEnvelope } from '../http/api-envelope.decorator';
import { PlatformKeysResponse } from './dto/execute.dto';

/**
 * The platform's public keys, for agents verifying X-Agora-Signature. It left ExecutionController
 * unchanged in the API: same route, tag and operation id (pinned, so clients generated from
 * docs/openapi.json keep their method name).
 */
@ApiTags('execution')
@Controller()
export class PlatformKeysController {
  constructor(private readonly signer: PlatformSigner) {}

  @Get('platform/keys')
  @ApiOperation({
    operationId: 'ExecutionController_keys',
    summary: 'Public keys agents use to verify X-Agora-Signature on calls from the platform',
  })
  @ApiEnvelope(PlatformKeysResponse)
  keys(): PlatformKeysResponse {
    return { keys: [{ kid: this.signer.keyId, alg: 'Ed25519', publicKey: this.signer.publicKey }] };
  }
}
