import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiConsoleSession, ApiPayerProof } from '../http/security';
import { WalletAuthContext } from '@app/auth';
import { AppConfig } from '@app/config';
import {
  CLIENT_SIGNATURE_HEADER,
  CLIENT_WALLET_HEADER,
  FileDispute,
  GetDispute,
  GetEvidenceKey,
  ListAgentDisputes,
  RespondToDispute,
} from '@app/disputes';
import { isLivemode } from '@app/x402';
import { WalletAuth, WalletSigned } from '../auth/wallet-auth.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { prefixedId, UuidParamPipe } from '../http/validation';
import { presentedPayment } from '../http/x402-http';
import {
  DisputeListQueryDto,
  DisputeEvidenceKeyResponse,
  DisputeListResponse,
  DisputeResponse,
  FileDisputeDto,
  FileDisputeResponse,
  RespondDisputeDto,
  RespondDisputeResponse,
  toDisputeListResponse,
  toDisputeResponse,
  toFileDisputeResponse,
  toRespondDisputeResponse,
  UNVERIFIED_FILING,
  unverifiedFilingHeaders,
} from './dto/disputes.dto';

@ApiTags('disputes')
@Controller('disputes')
export class DisputesController {
  private readonly livemode: boolean;
  private readonly docsUrl: string;

  constructor(
    private readonly fileDispute: FileDispute,
    private readonly respondToDispute: RespondToDispute,
    private readonly getDispute: GetDispute,
    private readonly getEvidenceKey: GetEvidenceKey,
    private readonly listDisputes: ListAgentDisputes,
    config: AppConfig,
  ) {
    this.livemode = isLivemode(config);
    this.docsUrl = `${config.publicBaseUrl}/api/docs`;
  }

  @Post()
  @ApiOperation({
    summary:
      "Dispute a charged transaction (its payer only, once, within 7 days): the agent's earnings of it are frozen",
    description: `Proof of being the payer: ${CLIENT_WALLET_HEADER} + ${CLIENT_SIGNATURE_HEADER} (what the SDK and CLI send), or the original payment header (X-PAYMENT or PAYMENT-SIGNATURE). ${UNVERIFIED_FILING}`,
  })
  @ApiPayerProof()
  @ApiEnvelope(FileDisputeResponse, 201)
  @ApiErrors(400, 401, 403, 404, 409)
  async file(
    @Body() dto: FileDisputeDto,
    @Headers() headers: Record<string, string | undefined>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<FileDisputeResponse> {
    const dispute = await this.fileDispute.execute({
      transactionId: dto.transactionId,
      reason: dto.reason,
      evidence: dto.evidence ?? null,
      proof: {
        payment: presentedPayment(headers),
        wallet: headers['x-client-wallet'],
        signature: headers['x-client-signature'],
      },
    });
    if (!dispute.verified) res.set(unverifiedFilingHeaders(this.docsUrl));
    return toFileDisputeResponse(dispute, this.livemode);
  }

  // Declared before `:id` so the path is not taken for a dispute id.
  @Get('agent/:agentId')
  @ApiOperation({ summary: "An agent's disputes, newest first (status filter, paging, total)" })
  @ApiEnvelope(DisputeListResponse)
  @ApiErrors(400, 404)
  async list(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() q: DisputeListQueryDto,
  ): Promise<DisputeListResponse> {
    return toDisputeListResponse(
      await this.listDisputes.execute(agentId, q.status, { limit: q.limit, offset: q.offset }),
    );
  }

  @Get(':id')
  @ApiOperation({ summary: 'One dispute, with the evidence the platform holds about the execution' })
  @ApiEnvelope(DisputeResponse)
  @ApiErrors(400, 404)
  async get(@Param('id') id: string): Promise<DisputeResponse> {
    return toDisputeResponse(await this.getDispute.execute(prefixedId(id, 'dsp', 'id')), this.livemode);
  }

  @Get(':id/evidence-key')
  @WalletSigned(null)
  @ApiConsoleSession()
  @ApiOperation({
    summary: "The key of the evidence hashes, for the disputed agent's wallet (the payer gets it when it files)",
    description:
      'inputHash and outputHash are HMAC-SHA256 (hex) under this key of the SHA-256 hex of the canonical JSON: recompute them from what was sent and answered.',
  })
  @ApiEnvelope(DisputeEvidenceKeyResponse)
  @ApiErrors(400, 401, 403, 404)
  async evidenceKey(
    @Param('id') id: string,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<DisputeEvidenceKeyResponse> {
    return this.getEvidenceKey.execute(prefixedId(id, 'dsp', 'id'), auth);
  }

  @Post(':id/respond')
  @HttpCode(200)
  @WalletSigned(null)
  @ApiOperation({
    summary: "The disputed agent's answer (wallet-signed by the agent's wallet; once, within the response window)",
  })
  @ApiEnvelope(RespondDisputeResponse)
  @ApiErrors(400, 401, 403, 404, 409)
  async respond(
    @Param('id') id: string,
    @Body() dto: RespondDisputeDto,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<RespondDisputeResponse> {
    const dispute = await this.respondToDispute.execute({
      disputeId: prefixedId(id, 'dsp', 'id'),
      response: dto.response,
      evidence: dto.evidence ?? null,
      auth,
    });
    return toRespondDisputeResponse(dispute);
  }
}
