import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WalletAuthContext } from '@app/auth';
import { ListAgentEvents } from '@app/outbox';
import { WalletAuth, WalletSigned } from '../auth/wallet-auth.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { ApiConsoleSession } from '../http/security';
import { AgentEventsResponse, EventsQueryDto, toAgentEventsResponse } from './dto/events.dto';

@ApiTags('events')
@Controller('events')
export class EventsController {
  constructor(private readonly events: ListAgentEvents) {}

  @Get()
  @WalletSigned(null)
  @ApiConsoleSession()
  @ApiOperation({
    summary:
      "The signing agent's domain events (what its webhooks are sent), oldest first, after a cursor (wallet-signed; a signature may be reused for reads within its window)",
  })
  @ApiEnvelope(AgentEventsResponse)
  @ApiErrors(400, 401, 403, 404)
  async list(@Query() q: EventsQueryDto, @WalletAuth() auth: WalletAuthContext): Promise<AgentEventsResponse> {
    return toAgentEventsResponse(await this.events.execute(auth.agentId, q));
  }
}
