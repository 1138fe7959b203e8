import { ApiProperty } from '@nestjs/swagger';
import { SettlementResponse } from '../../execution/dto/execute.dto';
import { LIVEMODE } from '../../payments/dto/payments.dto';

/**
 * `POST /agents` answered 202: the fee settled, then the database failed before the agent's creation
 * was known. Never a reason to pay again: the payment's status says what became of it.
 */
export class RegistrationAcceptedResponse {
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty({
    format: 'uuid',
    description: "The agent's id if its creation was kept (GET /api/v1/agents/{agentId}; 404 if it was not)",
  })
  agentId: string;
  @ApiProperty({
    description:
      "Absolute URL of the fee's payment status (also in the Location header): settled once the agent exists; refunded in full (registration_unused) when no agent was created within REGISTRATION_BIND_GRACE_MS; settlement_pending until then",
    example: 'https://agora.example.com/api/v1/payments/status/0x...',
  })
  statusUrl: string;
  @ApiProperty({ type: SettlementResponse, description: 'The fee as this request knew it: settled, with its hash' })
  settlement: SettlementResponse;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export function toRegistrationAccepted(
  agentId: string,
  txHash: string,
  baseUrl: string,
  livemode: boolean,
): RegistrationAcceptedResponse {
  return {
    status: 'pending',
    agentId,
    statusUrl: `${baseUrl}/api/v1/payments/status/${txHash}`,
    settlement: { status: 'settled', txHash, livemode },
    livemode,
  };
}
