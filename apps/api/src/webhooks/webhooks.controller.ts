import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { WalletAuthContext } from '@app/auth';
import { CreateSubscription, DeleteSubscription, ListDeliveries, ListSubscriptions, Redeliver } from '@app/webhooks';
import { MaybeWalletAuth, WalletAuth, WalletSigned, WalletSignedOptional } from '../auth/wallet-auth.guard';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { PageQueryDto } from '../http/pagination.dto';
import { prefixedId, UuidParamPipe } from '../http/validation';
import { ApiConsoleSession } from '../http/security';
import {
  CreateWebhookDto,
  DeliveryListResponse,
  DeliveryResponse,
  toDeliveryResponse,
  toWebhookResponse,
  WebhookDeletedResponse,
  WebhookListResponse,
  WebhookResponse,
} from './dto/webhooks.dto';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly createSubscription: CreateSubscription,
    private readonly listSubscriptions: ListSubscriptions,
    private readonly deleteSubscription: DeleteSubscription,
    private readonly listDeliveries: ListDeliveries,
    private readonly redeliverOne: Redeliver,
  ) {}

  @Post()
  @WalletSigned({ body: 'agentId' })
  @ApiOperation({ summary: 'Subscribe an HTTPS URL to events of an agent (wallet-signed)' })
  @ApiEnvelope(WebhookResponse, 201)
  @ApiErrors(400, 401, 403, 404, 409)
  async create(@Body() dto: CreateWebhookDto, @WalletAuth() auth: WalletAuthContext): Promise<WebhookResponse> {
    return toWebhookResponse(
      await this.createSubscription.execute(auth, {
        agentId: dto.agentId.toLowerCase(),
        url: dto.url,
        events: dto.events,
        secret: dto.secret,
      }),
    );
  }

  @Get('agent/:agentId')
  @WalletSignedOptional({ param: 'agentId' })
  @ApiConsoleSession()
  @ApiOperation({
    summary: "An agent's webhooks (secrets are never returned)",
    description:
      "Public. Without the agent's wallet signature (or its console session) each `url` is its origin only, " +
      "`https://host[:port]/` (no path or query: they may hold the receiver's token; WEBHOOK_LIST_URLS=full " +
      'shows them whole to everyone); with it, the whole URL. Headers present but wrong: 401/403.',
  })
  @ApiEnvelope(WebhookListResponse)
  @ApiErrors(400, 401, 403)
  async list(
    @Param('agentId', UuidParamPipe) agentId: string,
    @Query() page: PageQueryDto,
    @MaybeWalletAuth() auth: WalletAuthContext | null,
  ): Promise<WebhookListResponse> {
    const { webhooks, total } = await this.listSubscriptions.execute(agentId, page, auth);
    return { webhooks: webhooks.map(toWebhookResponse), total };
  }

  @Delete(':id')
  @WalletSigned(null)
  @ApiOperation({ summary: 'Delete a webhook (wallet-signed); attempts not yet sent are cancelled' })
  @ApiEnvelope(WebhookDeletedResponse)
  @ApiErrors(400, 401, 403, 404)
  async remove(@Param('id') id: string, @WalletAuth() auth: WalletAuthContext): Promise<WebhookDeletedResponse> {
    await this.deleteSubscription.execute(prefixedId(id, 'wh', 'id'), auth);
    return { message: 'Webhook deleted', id };
  }

  @Get(':id/deliveries')
  @WalletSigned(null)
  @ApiConsoleSession()
  @ApiOperation({
    summary:
      'Delivery attempts of a webhook, newest first (wallet-signed; the signature may be reused within its window)',
  })
  @ApiEnvelope(DeliveryListResponse)
  @ApiErrors(400, 401, 403, 404)
  async deliveryLog(
    @Param('id') id: string,
    @Query() page: PageQueryDto,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<DeliveryListResponse> {
    const { deliveries, total } = await this.listDeliveries.execute(prefixedId(id, 'wh', 'id'), auth, page);
    return { deliveries: deliveries.map(toDeliveryResponse), total };
  }

  @Post(':id/deliveries/:deliveryId/redeliver')
  @WalletSigned(null)
  @ApiOperation({ summary: 'Send a past delivery again now, as one attempt outside the schedule (wallet-signed)' })
  @ApiEnvelope(DeliveryResponse, 201)
  @ApiErrors(400, 401, 403, 404)
  async redeliver(
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
    @WalletAuth() auth: WalletAuthContext,
  ): Promise<DeliveryResponse> {
    return toDeliveryResponse(
      await this.redeliverOne.execute(prefixedId(id, 'wh', 'id'), prefixedId(deliveryId, 'dlv', 'deliveryId'), auth),
    );
  }
}
