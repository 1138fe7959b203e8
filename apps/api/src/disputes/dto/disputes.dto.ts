import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { formatMicros } from '@app/common';
import {
  DISPUTE_LIMITS,
  DISPUTE_OUTCOMES,
  DISPUTE_STATUSES,
  DisputeEntity,
  DisputeStatus,
  DisputeView,
  FiledDispute,
} from '@app/disputes';
import { PageQueryDto } from '../../http/pagination.dto';
import { LIVEMODE } from '../../payments/dto/payments.dto';

export class FileDisputeDto {
  @ApiProperty({ example: 'tx_3mZ0v1Xq9c2bWk4r', description: 'The charged transaction (tx_) being disputed' })
  @IsString()
  @Matches(/^tx_[A-Za-z0-9_-]{8,40}$/, { message: 'transactionId must be a tx_ identifier' })
  transactionId: string;

  @ApiProperty({ maxLength: DISPUTE_LIMITS.reason })
  @IsString()
  @IsNotEmpty()
  @MaxLength(DISPUTE_LIMITS.reason)
  reason: string;

  @ApiPropertyOptional({
    maxLength: DISPUTE_LIMITS.evidence,
    description: 'Free text (links, excerpts); what the platform saw is attached without asking',
  })
  @IsOptional()
  @IsString()
  @MaxLength(DISPUTE_LIMITS.evidence)
  evidence?: string;
}

export class RespondDisputeDto {
  @ApiProperty({ maxLength: DISPUTE_LIMITS.response })
  @IsString()
  @IsNotEmpty()
  @MaxLength(DISPUTE_LIMITS.response)
  response: string;

  @ApiPropertyOptional({ maxLength: DISPUTE_LIMITS.evidence })
  @IsOptional()
  @IsString()
  @MaxLength(DISPUTE_LIMITS.evidence)
  evidence?: string;
}

export class ResolveDisputeDto {
  @ApiProperty({ enum: DISPUTE_OUTCOMES })
  @IsIn(DISPUTE_OUTCOMES)
  resolution: (typeof DISPUTE_OUTCOMES)[number];

  @ApiPropertyOptional({ maxLength: DISPUTE_LIMITS.note })
  @IsOptional()
  @IsString()
  @MaxLength(DISPUTE_LIMITS.note)
  note?: string;

  @ApiPropertyOptional({
    description:
      "Refund now what the agent already withdrew of the earnings, paid by the platform and owed to it by the agent (default false: that part is the agent's debt to the payer, refunded as its later earnings repay it)",
  })
  @IsOptional()
  @IsBoolean()
  advance?: boolean;
}

export class DisputeListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DISPUTE_STATUSES })
  @IsOptional()
  @IsIn(DISPUTE_STATUSES)
  status?: DisputeStatus;
}

/** What an unverified filing is (the filing route's description, and the `verified` fields'). */
export const UNVERIFIED_FILING =
  'In evm settlement a payment header can be rebuilt by anyone from the settlement on chain, so a filing proved only by it is unverified (deprecated since API 1.2.0: such a response carries `Deprecation` and `Link` headers, RFC 9745): it freezes the earnings and the agent may answer, but it moves no reputation, gives no evidence key, and is not resolved client_wins when the response window closes (an admin decides it). The payer confirms it by filing again with its signature: the dispute becomes verified (instead of 409 DISPUTE_EXISTS), with a full response window from then. In local settlement the header proves the payer as before.';

const VERIFIED =
  "Whether the filer proved it is the payer: false for a filing proved only by a payment header on a public chain (evm), which moves no reputation and is not resolved client_wins by the deadline until the payer's signature confirms it";

/** When the header as the sole proof of payer was deprecated (API 1.2.0), as an RFC 9745 date. */
const HEADER_PROOF_DEPRECATED = '@1796601600';

/** RFC 9745 `Deprecation` and its `Link` (rel="deprecation") for a filing the payment header alone proved on a public chain. */
export function unverifiedFilingHeaders(docsUrl: string): Record<string, string> {
  return {
    Deprecation: HEADER_PROOF_DEPRECATED,
    Link: `<${docsUrl}#/disputes/DisputesController_file>; rel="deprecation"; type="text/html"`,
  };
}

export class FileDisputeResponse {
  @ApiProperty() disputeId: string;
  @ApiProperty() transactionId: string;
  @ApiProperty({ enum: ['pending'] }) status: string;
  @ApiProperty() reason: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() respondBy: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'HMAC-SHA256 key (64 hex) of the evidence hashes; given to the payer here and to the agent at GET /disputes/:id/evidence-key, to nobody else. Null for an unverified filing (see verified)',
  })
  evidenceKey: string | null;
  @ApiProperty({ description: VERIFIED }) verified: boolean;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class DisputeEvidenceKeyResponse {
  @ApiProperty() disputeId: string;
  @ApiProperty() transactionId: string;
  @ApiProperty({ description: 'HMAC-SHA256 key (64 hex) of platformEvidence.facts.inputHash and outputHash' })
  evidenceKey: string;
}

export class RespondDisputeResponse {
  @ApiProperty() disputeId: string;
  @ApiProperty({ enum: ['responded'] }) status: string;
  @ApiProperty() agentResponse: string;
  @ApiProperty() respondedAt: string;
}

export class DisputeResolutionResponse {
  @ApiProperty({ enum: DISPUTE_OUTCOMES }) outcome: string;
  @ApiProperty({ nullable: true, type: String }) note: string | null;
  @ApiProperty({
    description:
      'What the resolution gives back to the client (of the agent fee); see refundedAmount and outstandingAmount for how much has been paid',
  })
  refundAmount: string;
  @ApiProperty({ description: 'Released to the agent (its debts repaid first)' }) releasedAmount: string;
  @ApiProperty({ example: 'admin', description: 'admin, or system:timeout when the agent did not respond in time' })
  resolvedBy: string;
  @ApiPropertyOptional({ description: 'Whether the admin advanced what the agent had withdrawn' }) advance?: boolean;
}

export class PlatformEvidenceResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "What the platform saw: transactionId, capabilityId, status, inputHash and outputHash (HMAC-SHA256, under the evidence key only the parties get, of the SHA-256 hex of the canonical JSON), agentError, timings, cost, settlement {status, txHash, network, payer}, chainId. Never the request id (the payer's only: it reads the output)",
  })
  facts: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'keyId and signature (t=<unix s>,ed25519=<base64 over "agora-attestation.v2.<t>.<transactionId>.<sha256 hex of the canonical JSON of facts>">), verifiable against GET /platform/keys; never valid as a call to an agent',
  })
  attestation: Record<string, unknown>;
}

export class DisputeResponse {
  @ApiProperty() id: string;
  @ApiProperty() transactionId: string;
  @ApiProperty({ description: 'The client: the payer wallet' }) clientId: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ enum: DISPUTE_STATUSES }) status: string;
  @ApiProperty() reason: string;
  @ApiProperty({ nullable: true, type: String }) evidence: string | null;
  @ApiProperty({ nullable: true, type: String }) agentResponse: string | null;
  @ApiProperty({ nullable: true, type: String }) agentEvidence: string | null;
  @ApiProperty({ nullable: true, type: String }) respondedAt: string | null;
  @ApiProperty({ nullable: true, type: DisputeResolutionResponse }) resolution: DisputeResolutionResponse | null;
  @ApiProperty({
    description:
      "What the agent still held of the transaction's earnings at filing (escrow, else available), frozen while the dispute is open",
  })
  frozenAmount: string;
  @ApiProperty({
    description:
      "What an admin's resolution advanced of the earnings the agent had withdrawn (owed by the agent to the platform)",
  })
  advancedAmount: string;
  @ApiProperty({
    description:
      "Of refundAmount, what has been refunded to the client so far (at resolution, and from the agent's repayments since)",
  })
  refundedAmount: string;
  @ApiProperty({
    description:
      'Of refundAmount, what the agent still owes the client: earnings it had withdrawn, refunded as its next earnings repay them',
  })
  outstandingAmount: string;
  @ApiProperty({ type: PlatformEvidenceResponse }) platformEvidence: PlatformEvidenceResponse;
  @ApiProperty() createdAt: string;
  @ApiProperty() respondBy: string;
  @ApiProperty({ nullable: true, type: String }) resolvedAt: string | null;
  @ApiProperty({ description: VERIFIED }) verified: boolean;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class DisputeListItemResponse {
  @ApiProperty() id: string;
  @ApiProperty() transactionId: string;
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ enum: DISPUTE_STATUSES }) status: string;
  @ApiProperty() reason: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() respondBy: string;
}

export class DisputeListResponse {
  @ApiProperty({ type: [DisputeListItemResponse] }) disputes: DisputeListItemResponse[];
  @ApiProperty() total: number;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export function toFileDisputeResponse(d: FiledDispute, livemode: boolean): FileDisputeResponse {
  return {
    disputeId: d.id,
    transactionId: d.transactionId,
    status: d.status,
    reason: d.reason,
    createdAt: iso(d.createdAt)!,
    respondBy: iso(d.respondBy)!,
    evidenceKey: d.evidenceKey,
    verified: d.verified,
    livemode,
  };
}

export function toRespondDisputeResponse(d: DisputeEntity): RespondDisputeResponse {
  return { disputeId: d.id, status: d.status, agentResponse: d.agentResponse!, respondedAt: iso(d.respondedAt)! };
}

export function toDisputeResponse(d: DisputeView, livemode: boolean): DisputeResponse {
  const evidence = d.platformEvidence as unknown as PlatformEvidenceResponse;
  return {
    id: d.id,
    transactionId: d.transactionId,
    clientId: d.clientWallet,
    agentId: d.agentId,
    status: d.status,
    reason: d.reason,
    evidence: d.evidence,
    agentResponse: d.agentResponse,
    agentEvidence: d.agentEvidence,
    respondedAt: iso(d.respondedAt),
    resolution: d.resolution,
    frozenAmount: formatMicros(d.frozenAmount),
    advancedAmount: formatMicros(d.advancedAmount),
    refundedAmount: formatMicros(d.refundedAmount),
    outstandingAmount: formatMicros(d.outstandingAmount),
    platformEvidence: { facts: publicFacts(evidence.facts), attestation: evidence.attestation },
    createdAt: iso(d.createdAt)!,
    respondBy: iso(d.respondBy)!,
    resolvedAt: iso(d.resolvedAt),
    verified: d.verified,
    livemode,
  };
}

/**
 * The facts without a request id: a dispute is public, and the request id is the payer's (with a payment header
 * rebuilt from chain data it reads the output). Disputes filed since issue 52 hold none in their facts; one
 * filed before loses it here (its attestation then verifies with the request id the parties know put back).
 */
function publicFacts(facts: Record<string, unknown>): Record<string, unknown> {
  const { requestId: _requestId, ...shown } = facts;
  return shown;
}

export function toDisputeListResponse(r: { disputes: DisputeEntity[]; total: number }): DisputeListResponse {
  return {
    disputes: r.disputes.map((d) => ({
      id: d.id,
      transactionId: d.transactionId,
      agentId: d.agentId,
      status: d.status,
      reason: d.reason,
      createdAt: iso(d.createdAt)!,
      respondBy: iso(d.respondBy)!,
    })),
    total: r.total,
  };
}
