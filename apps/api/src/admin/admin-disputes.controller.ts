import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '@app/config';
import { ResolveDispute } from '@app/disputes';
import { isLivemode } from '@app/x402';
import { AdminOnly } from '../auth/admin-key.guard';
import { DisputeResponse, ResolveDisputeDto, toDisputeResponse } from '../disputes/dto/disputes.dto';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { prefixedId } from '../http/validation';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/disputes')
export class AdminDisputesController {
  private readonly livemode: boolean;

  constructor(
    private readonly resolveDispute: ResolveDispute,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
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
