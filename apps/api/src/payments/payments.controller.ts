import { Body, Controller, Get, Param, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { GetPlatformStats } from '@app/analytics';
import { WalletAuthContext } from '@app/auth';
import { Usdc } from '@app/common';
import { AppConfig } from '@app/config';
import { GetPaymentStatus } from '@app/execution';
import {
  GetBalance,
  GetEarningsHistory,
  GetTransaction,
  GetWithdrawal,
  ListWithdrawals,
  RequestWithdrawal,
} from '@app/payments';
import { isLivemode } from '@app/x402';
import { WalletAuth, WalletSigned } from '../auth/wallet-auth.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { HistoryQueryDto, PageQueryDto } from '../http/pagination.dto';
import { prefixedId, UuidParamPipe } from '../http/validation';
import { ApiConsoleSession, ApiPayerRead } from '../http/security';
import { payerProof } from '../console/session-cookie';
import {
  BalanceResponse,
  StatsResponse,
  toBalanceResponse,
  toStatsResponse,
  toTransactionListItem,
  toTransactionResponse,
  toWithdrawalListResponse,
  toWithdrawalResponse,
  toWithdrawResponse,
  TransactionListItemResponse,
  TransactionResponse,
  WithdrawalListResponse,
  WithdrawalResponse,
  WithdrawDto,
  PaymentStatusQueryDto,
  WithdrawResponse,
} from './dto/payments.dto';
import { PaymentStatusResponse, toPaymentStatusResponse } from './dto/payment-status.dto';

@ApiTags('payments')
@Controller('payments')
export class PaymentsController {
  private readonly livemode: boolean;

  constructor(
    private readonly getBalance: GetBalance,
    private readonly requestWithdrawal: RequestWithdrawal,
    private readonly listWithdrawals: ListWithdrawals,
    private readonly getWithdrawal: GetWithdrawal,
    private readonly earningsHistory: GetEarningsHistory,
    private readonly getTransaction: GetTransaction,
    private readonly platformStats: GetPlatformStats,
    private readonly paymentStatus: GetPaymentStatus,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
  }

  @Get('balance/:agentId')
  @ApiOperation({ summary: "An agent's balance: available, in escrow, totals" })
  @ApiEnvelope(BalanceResponse)
  @ApiErrors(400, 404)
  async balance(@Param('agentId', UuidParamPipe) agentId: string): Promise<BalanceResponse> {
    return toBalanceResponse(await this.getBalance.execute(agentId));
  }

  @Post('withdraw')
  @WalletSigned({ body: 'agentId' })
  @ApiOperation({ summary: 'Withdraw available balance to a wallet (wallet-signed; minimum 1.00, fee 0.10)' })
  @ApiEnvelope(WithdrawResponse, 201)
  @ApiErrors(400, 401, 403, 404, 409)
  async withdraw(@Body() dto: WithdrawDto, @WalletAuth() auth: WalletAuthContext): Promise<WithdrawResponse> {
    const w = await this.requestWithdrawal.execute({
      agentId: dto.agentId.toLowerCase(),
      auth,
      amount: Usdc.parse(dto.amount, 'amount').micros,
      destinationWallet: dto.destinationWallet,
    });
    return toWithdrawResponse(w, this.livemode);
  }

  @Get('withdrawals/:agentId')
  @ApiOperation({ summary: "An agent's withdrawals with a summary" })
  @ApiEnvelope(WithdrawalListResponse)
  @ApiErrors(400)
  async list(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() page: PageQueryDto,
  ): Promise<WithdrawalListResponse> {
    const { withdrawals, summary } = await this.listWithdrawals.execute(agentId, page);
    return toWithdrawalListResponse(withdrawals, summary, this.livemode);
  }

  @Get('withdrawal/:id')
  @ApiOperation({ summary: 'One withdrawal' })
  @ApiEnvelope(WithdrawalResponse)
  @ApiErrors(400, 404)
  async withdrawal(@Param('id') id: string): Promise<WithdrawalResponse> {
    return toWithdrawalResponse(await this.getWithdrawal.execute(prefixedId(id, 'wd', 'id')), this.livemode);
  }

  @Get('history/:agentId')
  @WalletSigned({ param: 'agentId' })
  @ApiConsoleSession()
  @ApiOperation({
    summary:
      "An agent's transactions, newest first, optionally one status or capability (wallet-signed; a signature may be reused for reads within its window; or the agent's console session)",
  })
  @ApiEnvelope(TransactionListItemResponse, 200, undefined, true)
  @ApiErrors(400, 401, 403, 404)
  async history(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() q: HistoryQueryDto,
  ): Promise<TransactionListItemResponse[]> {
    return (await this.earningsHistory.execute(agentId, q)).map((t) => toTransactionListItem(t, this.livemode));
  }

  @Get('tx/:txId')
  @ApiOperation({ summary: 'One transaction' })
  @ApiEnvelope(TransactionResponse)
  @ApiErrors(400, 404)
  async transaction(@Param('txId') txId: string): Promise<TransactionResponse> {
    return toTransactionResponse(await this.getTransaction.execute(prefixedId(txId, 'tx', 'txId')), this.livemode);
  }

  @Get('status/:ref')
  @ApiOperation({
    summary:
      'What became of a payment (public): by settlement transaction hash, authorization nonce or payment identifier',
    description:
      "Each matching payment with its status (settled, settlement_pending, failed, released, refunded), network, transaction hash when known, payer, amount, request id (the payer's only) and times. Never an output, a signature or a header. A nonce or a payment identifier is looked up for one payer (`payer`, required with an identifier); without it a 0x reference is a transaction hash. The idempotency keys a payer used and its request ids are told only to that payer: with `payer` and the payer's proof (X-Client-Wallet and X-Client-Signature = agora-auth:<wallet>:<unix_ms>:sig:<EIP-191 signature>, within the auth window, or its console session signed in as that paying wallet) an identifier is looked up and requestId given; without one, an identifier is 404 NOT_FOUND as an unknown one and every requestId is null (a malformed or stale signature is 401, a forged one 403; another wallet's proof gets the public answer).",
  })
  @ApiParam({
    name: 'ref',
    description:
      'A settlement transaction hash or an EIP-3009 authorization nonce (0x and 64 hex digits), or an x402 payment identifier (16-128 of A-Z, a-z, 0-9, "_" and "-")',
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,128}$', minLength: 16, maxLength: 128 },
  })
  @ApiPayerRead()
  @ApiEnvelope(PaymentStatusResponse)
  @ApiErrors(400, 401, 403, 404)
  async status(
    @Param('ref') ref: string,
    @Query() q: PaymentStatusQueryDto,
    @Req() req: Request,
  ): Promise<PaymentStatusResponse> {
    const views = await this.paymentStatus.execute(ref, q.payer ?? null, payerProof(req));
    return toPaymentStatusResponse(views, this.livemode);
  }

  @Get('stats')
  @ApiOperation({
    summary: 'Platform totals (served by analytics from rollups the database keeps; no scan of the history)',
  })
  @ApiEnvelope(StatsResponse)
  async stats(): Promise<StatsResponse> {
    return toStatsResponse(await this.platformStats.execute());
  }
}
