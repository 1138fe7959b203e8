import { ApiProperty } from '@nestjs/swagger';
import { SettlementResponse } from '../../execution/dto/execute.dto';
import { LIVEMODE } from '../../payments/dto/payments.dto';

/**
 * `POST /agents` answered 202: the fee's payment was written, then the database failed (or the chain had
 * not decided its settlement) before the outcome was known. Never a reason to pay again: the payment's
 * status says what became of it.
 */
export class RegistrationAcceptedResponse {
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty({
    format: 'uuid',
    nullable: true,
    type: String,
    description:
      "The agent's id if its creation was kept (GET /api/v1/agents/{agentId}; 404 if it was not). null when the fee's settlement itself was not known: no agent was created, and a fee that moved is refunded in full",
  })
  agentId: string | null;
  @ApiProperty({
    description:
      "Absolute URL of the fee's payment status (also in the Location header), by its settlement hash or, before one is known, by its authorization nonce and payer: settled once the agent exists; refunded in full (registration_unused) when no agent was created within REGISTRATION_BIND_GRACE_MS; released when the authorization expired unused; settlement_pending until then",
    example: 'https://agora.example.com/api/v1/payments/status/0x...',
  })
  statusUrl: string;
  @ApiProperty({
    type: SettlementResponse,
    description: 'The fee as this request knew it: settled with its hash, or settlement_pending (its hash once sent)',
  })
  settlement: SettlementResponse;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

/** What the request knew of the fee: settled (its hash), or pending with its nonce and payer (and hash once sent). */
export type AcceptedFee =
  { settled: true; txHash: string } | { settled: false; payer: string; nonce: string; txHash: string | null };

export function toRegistrationAccepted(
  agentId: string | null,
  fee: AcceptedFee,
  baseUrl: string,
  livemode: boolean,
): RegistrationAcceptedResponse {
  // Before it settled, the nonce (with its payer) finds the payment whatever became of it.
  const ref = fee.settled ? fee.txHash : `${fee.nonce}?payer=${fee.payer}`;
  return {
    status: 'pending',
    agentId,
    statusUrl: `${baseUrl}/api/v1/payments/status/${ref}`,
    settlement: { status: fee.settled ? 'settled' : 'settlement_pending', txHash: fee.txHash, livemode },
    livemode,
  };
}
