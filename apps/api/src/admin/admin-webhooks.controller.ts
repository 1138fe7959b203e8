import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListFailedSubscriptions } from '@app/webhooks';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { PageQueryDto } from '../http/pagination.dto';
import { FailedWebhookListResponse, toFailedWebhookListResponse } from './dto/admin-webhooks.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/webhooks')
export class AdminWebhooksController {
  constructor(private readonly listFailed: ListFailedSubscriptions) {}

  @Get('failed')
  @ApiOperation({
    summary:
      'Webhook subscriptions marked failed (deliveries stopped), most recently failed first, ' +
      'with their failed attempts; never their secrets (platform read)',
  })
  @ApiEnvelope(FailedWebhookListResponse)
  @ApiErrors(400, 401, 403)
  async failed(@Query() page: PageQueryDto): Promise<FailedWebhookListResponse> {
    return toFailedWebhookListResponse(await this.listFailed.execute(page));
  }
}
