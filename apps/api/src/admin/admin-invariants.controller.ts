import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetInvariantHistory } from '@app/ledger';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { PageQueryDto } from '../http/pagination.dto';
import { InvariantHistoryResponse, toInvariantHistoryResponse } from './dto/admin-invariants.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/invariants')
export class AdminInvariantsController {
  constructor(private readonly getHistory: GetInvariantHistory) {}

  @Get()
  @ApiOperation({
    summary:
      'The scheduled money invariant check: its current result (a violation pauses payouts) ' +
      'and a page of its history, newest first (platform read)',
  })
  @ApiEnvelope(InvariantHistoryResponse)
  @ApiErrors(400, 401, 403)
  async get(@Query() page: PageQueryDto): Promise<InvariantHistoryResponse> {
    return toInvariantHistoryResponse(await this.getHistory.execute(page));
  }
}
