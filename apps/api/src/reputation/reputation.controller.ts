import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { GetLeaderboard, GetReputation } from '@app/reputation';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { UuidParamPipe } from '../http/validation';
import {
  LeaderboardQueryDto,
  LeaderboardResponse,
  ReputationResponse,
  toLeaderboardResponse,
  toReputationResponse,
} from './dto/reputation.dto';

@ApiTags('reputation')
@Controller('reputation')
export class ReputationController {
  constructor(
    private readonly reputation: GetReputation,
    private readonly leaderboard: GetLeaderboard,
  ) {}

  // Declared before `:agentId` so the path is not taken for an agent id.
  @Get('leaderboard')
  @ApiOperation({ summary: 'Active agents ranked by reputation, then executions' })
  @ApiEnvelope(LeaderboardResponse)
  @ApiErrors(400)
  async top(@Query() q: LeaderboardQueryDto): Promise<LeaderboardResponse> {
    return toLeaderboardResponse(await this.leaderboard.execute(q.limit));
  }

  @Get(':agentId')
  @ApiOperation({ summary: "An agent's score, tier, newest events and breakdown" })
  @ApiEnvelope(ReputationResponse)
  @ApiErrors(400, 404)
  async get(@Param('agentId', UuidParamPipe) agentId: string): Promise<ReputationResponse> {
    return toReputationResponse(await this.reputation.execute(agentId));
  }
}
