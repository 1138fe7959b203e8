import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { isWallet, ValidationException } from '@app/common';
import { ListPayerDisputes } from '@app/disputes';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ApiConsoleSession } from '../http/security';
import { payerProof } from '../console/session-cookie';
import { DisputeListQueryDto, DisputeListResponse, toDisputeListResponse } from './dto/disputes.dto';

@ApiTags('disputes')
@Controller('payers')
export class PayerDisputesController {
  constructor(private readonly list: ListPayerDisputes) {}

  @Get(':wallet/disputes')
  @ApiOperation({
    summary: 'The disputes a paying wallet filed, newest first (status filter, paging, total)',
    description:
      'For that wallet only: with its console session (cookie agora_session), or X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<signature> (EIP-191, within the auth window).',
  })
  @ApiConsoleSession()
  @ApiHeader({ name: 'X-Client-Wallet', required: false })
  @ApiHeader({ name: 'X-Client-Signature', required: false })
  @ApiEnvelope(DisputeListResponse)
  @ApiErrors(400, 401, 403)
  async disputes(
    @Param('wallet') wallet: string,
    @Query() q: DisputeListQueryDto,
    @Req() req: Request,
  ): Promise<DisputeListResponse> {
    if (!isWallet(wallet))
      throw new ValidationException([{ field: 'wallet', messages: ['wallet must be a 0x address'] }]);
    const found = await this.list.execute(wallet, q.status, { limit: q.limit, offset: q.offset }, payerProof(req));
    return toDisputeListResponse(found);
  }
}
