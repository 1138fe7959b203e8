import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ListPendingPayouts, PENDING_KINDS } from '@app/payments';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { PendingListResponse, PendingQueryDto, toPendingListResponse } from './dto/admin-pending.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/pending')
export class AdminPendingController {
  constructor(private readonly listPending: ListPendingPayouts) {}

  @Get()
  @ApiOperation({
    summary:
      'Payouts and settlements not final yet, oldest first, with their age: withdrawals and refunds not sent, ' +
      'settlements not final, chain transactions undecided (platform read)',
  })
  @ApiEnvelope(PendingListResponse)
  @ApiErrors(400, 401, 403)
  async list(@Query() q: PendingQueryDto): Promise<PendingListResponse> {
    return toPendingListResponse(await this.listPending.execute(q.kind ? [q.kind] : PENDING_KINDS, q.limit));
  }
}
