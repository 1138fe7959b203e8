import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { ListOpenDisputes, ResolveDispute } from '@app/disputes';
import { isLivemode } from '@app/x402';
import { AdminOnly } from '../auth/admin-key.guard';
import { DisputeResponse, ResolveDisputeDto, toDisputeResponse } from '../disputes/dto/disputes.dto';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { PageQueryDto } from '../http/pagination.dto';
import { prefixedId } from '../http/validation';
import { AdminDisputeListResponse, toAdminDisputeListResponse } from './dto/admin-disputes.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/disputes')
export class AdminDisputesController {
  private readonly livemode: boolean;

  constructor(
    private readonly resolveDispute: ResolveDispute,
    private readonly listOpen: ListOpenDisputes,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
  }

  @Get()
  @ApiOperation({
    summary:
      'Disputes awaiting a platform decision (pending, or responded by the agent), oldest first, with both sides, ' +
      'the response deadline and what advance would change per outcome (platform read)',
  })
  @ApiEnvelope(AdminDisputeListResponse)
  @ApiErrors(400, 401, 403)
  async list(@Query() page: PageQueryDto): Promise<AdminDisputeListResponse> {
    return toAdminDisputeListResponse(await this.listOpen.execute(page), this.livemode);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Resolve a dispute (platform action): agent_wins releases the frozen earnings, client_wins refunds the agent fee, split refunds half; what the agent had withdrawn becomes its debt to the payer unless advance is true',
  })
  @ApiEnvelope(DisputeResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async resolve(@Param('id') id: string, @Body() dto: ResolveDisputeDto): Promise<DisputeResponse> {
    const dispute = await this.resolveDispute.execute({
      disputeId: prefixedId(id, 'dsp', 'id'),
      outcome: dto.resolution,
      note: dto.note ?? null,
      resolvedBy: 'admin',
      advance: dto.advance === true,
    });
    return toDisputeResponse(dispute!, this.livemode);
  }
}
