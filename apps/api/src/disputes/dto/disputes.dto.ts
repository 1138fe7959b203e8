import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { formatMicros } from '@app/common';
import { DISPUTE_LIMITS, DISPUTE_OUTCOMES, DISPUTE_STATUSES, DisputeEntity, DisputeStatus } from '@app/disputes';
import { PageQueryDto } from '../../http/pagination.dto';

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

  @ApiPropertyOptional({ maxLength: DISPUTE_LIMITS.evidence, description: 'Free text (links, excerpts); what the platform saw is attached without asking' })
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
}

export class DisputeListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DISPUTE_STATUSES })
  @IsOptional()
  @IsIn(DISPUTE_STATUSES)
  status?: DisputeStatus;
}

export class FileDisputeResponse {
  @ApiProperty() disputeId: string;
  @ApiProperty() transactionId: string;
  @ApiProperty({ enum: ['pending'] }) status: string;
  @ApiProperty() reason: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() respondBy: string;
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
  @ApiProperty({ description: 'Paid back to the client (of the agent fee)' }) refundAmount: string;
  @ApiProperty({ description: 'Released to the agent (its debt to the platform repaid first)' }) releasedAmount: string;
  @ApiProperty({ example: 'admin', description: 'admin, or system:timeout when the agent did not respond in time' }) resolvedBy: string;
}

export class PlatformEvidenceResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'What the platform saw: transactionId, requestId, capabilityId, status, inputHash and outputHash (SHA-256 of the canonical JSON), agentError, timings, cost, settlement {status, txHash, network, payer}, chainId',
  })
  facts: Record<string, unknown>;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'keyId and signature (t=<unix s>,ed25519=<base64 over "<t>.<requestId>.<sha256 hex of canonical facts>">), verifiable against GET /platform/keys',
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
  @ApiProperty({ description: "The agent's earnings of the transaction, frozen while the dispute is open" }) frozenAmount: string;
  @ApiProperty({ description: 'The part of it the platform advanced because the agent had already been paid (owed by the agent)' }) advancedAmount: string;
  @ApiProperty({ type: PlatformEvidenceResponse }) platformEvidence: PlatformEvidenceResponse;
  @ApiProperty() createdAt: string;
  @ApiProperty() respondBy: string;
  @ApiProperty({ nullable: true, type: String }) resolvedAt: string | null;
}

export class DisputeListItemResponse {
  @ApiProperty() id: string;
  @ApiProperty() transactionId: string;
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

export function toFileDisputeResponse(d: DisputeEntity): FileDisputeResponse {
  return { disputeId: d.id, transactionId: d.transactionId, status: d.status, reason: d.reason, createdAt: iso(d.createdAt)!, respondBy: iso(d.respondBy)! };
}

export function toRespondDisputeResponse(d: DisputeEntity): RespondDisputeResponse {
  return { disputeId: d.id, status: d.status, agentResponse: d.agentResponse!, respondedAt: iso(d.respondedAt)! };
}

export function toDisputeResponse(d: DisputeEntity): DisputeResponse {
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
    platformEvidence: { facts: evidence.facts, attestation: evidence.attestation },
    createdAt: iso(d.createdAt)!,
    respondBy: iso(d.respondBy)!,
    resolvedAt: iso(d.resolvedAt),
  };
}

export function toDisputeListResponse(r: { disputes: DisputeEntity[]; total: number }): DisputeListResponse {
  return {
    disputes: r.disputes.map((d) => ({ id: d.id, transactionId: d.transactionId, status: d.status, reason: d.reason, createdAt: iso(d.createdAt)!, respondBy: iso(d.respondBy)! })),
    total: r.total,
  };
}
