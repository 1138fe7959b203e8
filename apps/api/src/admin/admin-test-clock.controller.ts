import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdvanceTestClock } from '@app/disputes';
import { AdminOnly } from '../auth/admin-key.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { AdvanceTestClockDto, TestClockAdvanceResponse, toTestClockAdvanceResponse } from './dto/test-clock.dto';

@ApiTags('admin')
@AdminOnly()
@Controller('admin/test-clock')
export class AdminTestClockController {
  constructor(private readonly advanceTestClock: AdvanceTestClock) {}

  @Post('advance')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Local settlement only: move time forward by `seconds` for what waits on it (escrow holds, dispute response and filing windows, the withdrawal reserve, payout retries), then do the work now due',
  })
  @ApiEnvelope(TestClockAdvanceResponse)
  @ApiErrors(400, 401, 403)
  async advance(@Body() dto: AdvanceTestClockDto): Promise<TestClockAdvanceResponse> {
    return toTestClockAdvanceResponse(await this.advanceTestClock.execute(dto.seconds));
  }
}
