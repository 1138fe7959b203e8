import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ChainTokens } from '@app/chains';
import { ApiEnvelope } from '../http/api-envelope.decorator';
import { ChainKeysResponse } from './dto/chain-keys.dto';

@ApiTags('chains')
@Controller('chains')
export class ChainsController {
  constructor(private readonly tokens: ChainTokens) {}

  @Get('keys')
  @ApiOperation({ summary: 'Public keys that verify chain tokens (the current key, and previous ones still valid)' })
  @ApiEnvelope(ChainKeysResponse)
  keys(): ChainKeysResponse {
    return { keys: this.tokens.publicKeys() };
  }
}
