import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetQueueStats } from '@app/queues';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { NoQueryDto, QueueStatsListResponse, toQueueStatsListResponse } from './dto/admin-queues.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/queues')
export class AdminQueuesController {
  constructor(private readonly getQueueStats: GetQueueStats) {}

  @Get()
  @ApiOperation({
    summary: "Each job queue's jobs by state and the age of its oldest waiting job (platform read)",
  })
  @ApiEnvelope(QueueStatsListResponse)
  @ApiErrors(400, 401, 403)
  async get(@Query() _query: NoQueryDto): Promise<QueueStatsListResponse> {
    return toQueueStatsListResponse(await this.getQueueStats.execute());
  }
}
