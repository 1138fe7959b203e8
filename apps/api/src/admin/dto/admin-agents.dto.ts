import { ApiProperty } from '@nestjs/swagger';
import { SuspendedAgentRow } from '@app/agents';

export class SuspendedAgentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: "The agent's wallet" }) wallet: string;
  @ApiProperty({ minimum: 0, maximum: 100 }) reputationScore: number;
  @ApiProperty({
    enum: ['admin', 'reputation'],
    nullable: true,
    type: String,
    description: 'admin (POST /admin/agents/:id/suspend: no withdrawals either), or reputation (its score reached 0)',
  })
  suspendedBy: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The reason given, if any' })
  suspendedReason: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When it was suspended (null: suspended before the platform recorded the time)',
  })
  suspendedAt: string | null;
  @ApiProperty({ description: 'Its last change of any kind' }) updatedAt: string;
}

export class SuspendedAgentListResponse {
  @ApiProperty({ type: [SuspendedAgentResponse] }) agents: SuspendedAgentResponse[];
  @ApiProperty() total: number;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toSuspendedAgentListResponse(r: {
  agents: SuspendedAgentRow[];
  total: number;
}): SuspendedAgentListResponse {
  return {
    agents: r.agents.map((a) => ({
      id: a.id,
      name: a.name,
      wallet: a.wallet,
      reputationScore: a.reputationScore,
      suspendedBy: a.suspendedBy,
      suspendedReason: a.suspendedReason,
      suspendedAt: iso(a.suspendedAt),
      updatedAt: iso(a.updatedAt)!,
    })),
    total: r.total,
  };
}
