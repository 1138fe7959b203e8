import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { formatMicros } from '@app/common';
import { AppConfig } from '@app/config';
import { RetryRefund } from '@app/payments';
import { isLivemode } from '@app/x402';
import { AdminOnly } from '../auth/admin-key.guard';
import { RefundResponse } from '../execution/dto/execute.dto';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { prefixedId } from '../http/validation';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/refunds')
export class AdminRefundsController {
  private readonly livemode: boolean;

  constructor(
    private readonly retryRefund: RetryRefund,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
  }

  @Post(':id/retry')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Send a failed refund again now, or a held one (below the dust floor) alone on request (platform action); the worker also retries failed ones with backoff',
  })
  @ApiEnvelope(RefundResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async retry(@Param('id') id: string): Promise<RefundResponse> {
    const r = await this.retryRefund.execute(prefixedId(id, 'rfd', 'id'));
    return {
      refundId: r.id,
      amount: formatMicros(r.amount),
      status: r.status,
      txHash: r.txHash,
      livemode: this.livemode,
    };
  }
}
