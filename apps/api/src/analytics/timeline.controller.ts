import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetExecutionTimeline } from '@app/analytics';
import { ValidationException } from '@app/common';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ExecutionTimelineResponse } from './dto/timeline.dto';

const EXECUTION_OR_TRANSACTION = /^(req|tx)_[A-Za-z0-9_-]{8,40}$/;

@ApiTags('execution')
@Controller()
export class TimelineController {
  constructor(private readonly timeline: GetExecutionTimeline) {}

  @Get('execute/:id/timeline')
  @ApiOperation({
    summary: "What happened to an execution and its money, by request id or transaction id, with each step's time",
    description:
      'Received, paid (or funded from its chain), running, its outcome, settled (with the transaction), held in escrow and released, disputed and resolved, refunds issued and sent. Public like the status: no payer, input or output.',
  })
  @ApiEnvelope(ExecutionTimelineResponse)
  @ApiErrors(400, 404)
  get(@Param('id') id: string): Promise<ExecutionTimelineResponse> {
    if (!EXECUTION_OR_TRANSACTION.test(id))
      throw new ValidationException([{ field: 'id', messages: ['id must be a req_ or tx_ identifier'] }]);
    return this.timeline.execute(id);
  }
}
