import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { formatMicros } from '@app/common';
import { PlatformStats } from '@app/analytics';
import { AgentBalance, TransactionEntity, WithdrawalEntity, WithdrawalSummary } from '@app/payments';
import { IsUsdcAmount, IsWallet } from '../../http/validators';

/** The `livemode` field on every payment, execution, withdrawal and refund object. */
export const LIVEMODE =
  'False when no real money moved: local settlement (recorded in Postgres, made-up transaction hashes) or a test network (base-sepolia, a local chain). True only for evm/facilitator settlement on a mainnet.';

export class WithdrawDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all')
  agentId: string;

  @ApiProperty({ example: '5.00', description: 'Decimal string, at least 1.00; the 0.10 fee is taken from it' })
  @IsUsdcAmount()
  amount: string;

  @ApiProperty({ example: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' })
  @IsWallet()
  destinationWallet: string;
}

export class PaymentStatusQueryDto {
  @ApiPropertyOptional({
    example: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
    description:
      "The paying wallet: required with a payment identifier; with it a nonce is looked up too, and only its payments are answered. A payment identifier is looked up, and request ids answered, only with this wallet's proof (X-Client-Wallet and X-Client-Signature over the wallet, or its console session)",
  })
  @IsOptional()
  @IsWallet()
  payer?: string;
}

export class EscrowSummaryResponse {
  @ApiProperty() pendingCount: number;
  @ApiProperty({ example: '0.000000' }) pendingTotal: string;
}

export class BalanceResponse {
  @ApiProperty({ format: 'uuid' }) agentId: string;
  @ApiProperty({ example: '1.234500', description: 'Released earnings (withdrawable, less what is reserved)' })
  available: string;
  @ApiProperty({
    example: '0.500000',
    description:
      'Of available, the earnings the rolling reserve keeps while their transactions can still be disputed (0 for an agent with an established record)',
  })
  reserved: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When all of the reserved amount is free',
  })
  reservedUntil: string | null;
  @ApiProperty({
    example: '0.000000',
    description:
      'What the agent owes on disputes it lost after withdrawing the earnings; repaid from its next earnings first',
  })
  owed: string;
  @ApiProperty({ example: '0.095000', description: 'In escrow' }) pending: string;
  @ApiProperty() totalEarned: string;
  @ApiProperty() totalWithdrawn: string;
  @ApiProperty() totalDisputed: string;
  @ApiProperty() executionCount: number;
  @ApiProperty({ type: EscrowSummaryResponse }) escrow: EscrowSummaryResponse;
}

export class WithdrawResponse {
  @ApiProperty() withdrawalId: string;
  @ApiProperty() agentId: string;
  @ApiProperty() amount: string;
  @ApiProperty() fee: string;
  @ApiProperty() netAmount: string;
  @ApiProperty() destinationWallet: string;
  @ApiProperty({ example: 'pending' }) status: string;
  @ApiProperty() message: string;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class WithdrawalResponse {
  @ApiProperty() id: string;
  @ApiProperty() agent_id: string;
  @ApiProperty() amount: string;
  @ApiProperty() fee: string;
  @ApiProperty() net_amount: string;
  @ApiProperty() destination_wallet: string;
  @ApiProperty({ enum: ['pending', 'processing', 'completed', 'failed'] }) status: string;
  @ApiProperty({ nullable: true, type: String }) tx_hash: string | null;
  @ApiProperty() created_at: string;
  @ApiProperty({ nullable: true, type: String }) completed_at: string | null;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class WithdrawalSummaryResponse {
  @ApiProperty() totalCount: number;
  @ApiProperty() totalWithdrawn: string;
  @ApiProperty() pendingAmount: string;
}

export class WithdrawalListResponse {
  @ApiProperty({ type: [WithdrawalResponse] }) withdrawals: WithdrawalResponse[];
  @ApiProperty({ type: WithdrawalSummaryResponse }) summary: WithdrawalSummaryResponse;
}

export class TransactionListItemResponse {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The client: payer wallet, or the calling agent in a chain' }) requesting_agent: string;
  @ApiProperty() providing_agent: string;
  @ApiProperty() capability_id: string;
  @ApiProperty({ description: 'Agent fee' }) amount: string;
  @ApiProperty() platformCut: string;
  @ApiProperty() agent_earnings: string;
  @ApiProperty({ enum: ['completed', 'disputed', 'refunded'] }) status: string;
  @ApiProperty({ description: 'ms' }) execution_time: number;
  @ApiProperty() created_at: string;
  @ApiProperty({ description: LIVEMODE }) livemode: boolean;
}

export class TransactionResponse extends TransactionListItemResponse {
  @ApiProperty({ description: 'What the client paid: platform fee + agent fee' }) gross_amount: string;
  @ApiProperty({ description: 'Platform fee + platform cut' }) platform_revenue: string;
  @ApiProperty({ nullable: true, type: String }) escrow_id: string | null;
  @ApiPropertyOptional({ nullable: true, type: String }) dispute_id: string | null;
  @ApiProperty({ nullable: true, type: String }) completed_at: string | null;
}

export class StatsResponse {
  @ApiProperty() totalAgents: number;
  @ApiProperty() activeAgents: number;
  @ApiProperty() totalTransactions: number;
  @ApiProperty() totalVolume: string;
  @ApiProperty() avgTransactionSize: string;
}

export function toBalanceResponse(b: AgentBalance): BalanceResponse {
  return {
    agentId: b.agentId,
    available: formatMicros(b.available),
    reserved: formatMicros(b.reserved),
    reservedUntil: b.reservedUntil?.toISOString() ?? null,
    owed: formatMicros(b.owed),
    pending: formatMicros(b.pending),
    totalEarned: formatMicros(b.totalEarned),
    totalWithdrawn: formatMicros(b.totalWithdrawn),
    totalDisputed: formatMicros(b.totalDisputed),
    executionCount: b.executionCount,
    escrow: { pendingCount: b.escrow.pendingCount, pendingTotal: formatMicros(b.escrow.pendingTotal) },
  };
}

export function toWithdrawResponse(w: WithdrawalEntity, livemode: boolean): WithdrawResponse {
  return {
    withdrawalId: w.id,
    agentId: w.agentId,
    amount: formatMicros(w.amount),
    fee: formatMicros(w.fee),
    netAmount: formatMicros(w.netAmount),
    destinationWallet: w.destinationWallet,
    status: w.status,
    message: `Withdrawal requested; it is processed within 6 hours (USDC on Base)${livemode ? '' : '. Test mode: no real USDC is sent'}`,
    livemode,
  };
}

export function toWithdrawalResponse(w: WithdrawalEntity, livemode: boolean): WithdrawalResponse {
  return {
    id: w.id,
    agent_id: w.agentId,
    amount: formatMicros(w.amount),
    fee: formatMicros(w.fee),
    net_amount: formatMicros(w.netAmount),
    destination_wallet: w.destinationWallet,
    status: w.status,
    tx_hash: w.txHash,
    created_at: w.createdAt.toISOString(),
    completed_at: w.completedAt?.toISOString() ?? null,
    livemode,
  };
}

export function toWithdrawalListResponse(
  withdrawals: WithdrawalEntity[],
  s: WithdrawalSummary,
  livemode: boolean,
): WithdrawalListResponse {
  return {
    withdrawals: withdrawals.map((w) => toWithdrawalResponse(w, livemode)),
    summary: {
      totalCount: s.totalCount,
      totalWithdrawn: formatMicros(s.totalWithdrawn),
      pendingAmount: formatMicros(s.pendingAmount),
    },
  };
}

export function toTransactionListItem(t: TransactionEntity, livemode: boolean): TransactionListItemResponse {
  return {
    id: t.id,
    requesting_agent: t.requestingAgent,
    providing_agent: t.providingAgentId,
    capability_id: t.capabilityId,
    amount: formatMicros(t.agentFee),
    platformCut: formatMicros(t.platformCut),
    agent_earnings: formatMicros(t.agentEarnings),
    status: t.status,
    execution_time: t.executionTimeMs,
    created_at: t.createdAt.toISOString(),
    livemode,
  };
}

export function toTransactionResponse(t: TransactionEntity, livemode: boolean): TransactionResponse {
  return {
    ...toTransactionListItem(t, livemode),
    gross_amount: formatMicros(t.grossAmount),
    platform_revenue: formatMicros(t.platformFee + t.platformCut),
    escrow_id: t.escrowId,
    dispute_id: t.disputeId,
    completed_at: t.completedAt?.toISOString() ?? null,
  };
}

export function toStatsResponse(s: PlatformStats): StatsResponse {
  return {
    totalAgents: s.totalAgents,
    activeAgents: s.activeAgents,
    totalTransactions: s.totalTransactions,
    totalVolume: formatMicros(s.totalVolume),
    avgTransactionSize: formatMicros(s.avgTransactionSize),
  };
}
