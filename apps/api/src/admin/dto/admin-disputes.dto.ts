import { ApiProperty } from '@nestjs/swagger';
import { formatMicros } from '@app/common';
import { OpenDispute } from '@app/disputes';
import { DisputeResponse, toDisputeResponse } from '../../disputes/dto/disputes.dto';

export class DisputeAdvanceableResponse {
  @ApiProperty({ example: '0.004750', description: 'With resolution client_wins' }) client_wins: string;
  @ApiProperty({ example: '0.002375', description: 'With resolution split' }) split: string;
}

/** The Dispute resource (as GET /disputes/:id) with what the operator's resolution moves. */
export class AdminDisputeResponse extends DisputeResponse {
  @ApiProperty({
    example: '0.010000',
    description: "The transaction's agent fee: what client_wins gives back to the payer (split: half)",
  })
  agentFee: string;
  @ApiProperty({
    example: '0.009500',
    description: "The agent's earnings of the transaction (the fee less the platform's cut)",
  })
  agentEarnings: string;
  @ApiProperty({
    type: DisputeAdvanceableResponse,
    description:
      'For each outcome that refunds, the part of the earnings the agent had already withdrawn (frozenAmount ' +
      'does not cover it): with advance true the platform refunds it now and the agent owes it to the platform; ' +
      "with advance false (the default) it is the agent's debt to the payer, refunded as its later earnings " +
      'repay it. 0.000000: advance changes nothing',
  })
  advanceable: DisputeAdvanceableResponse;
}

export class AdminDisputeListResponse {
  @ApiProperty({ type: [AdminDisputeResponse] }) disputes: AdminDisputeResponse[];
  @ApiProperty({ description: 'Disputes awaiting a decision (pending or responded)' }) total: number;
}

export function toAdminDisputeListResponse(
  r: { disputes: OpenDispute[]; total: number },
  livemode: boolean,
): AdminDisputeListResponse {
  return {
    disputes: r.disputes.map((d) => ({
      ...toDisputeResponse(d, livemode),
      agentFee: formatMicros(d.agentFee),
      agentEarnings: formatMicros(d.agentEarnings),
      advanceable: {
        client_wins: formatMicros(d.advanceable.client_wins),
        split: formatMicros(d.advanceable.split),
      },
    })),
    total: r.total,
  };
}
