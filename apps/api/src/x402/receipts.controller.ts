import { Body, Controller, Get, Header, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReceiptSigner, ReceiptVerdict, VerifyReceipt } from '@app/x402';
import { ApiEnvelope, ApiErrors } from '../http/api-envelope.decorator';
import { Unwrapped } from '../http/envelope.interceptor';
import { VerifyReceiptDto, VerifyReceiptResponse } from '../execution/dto/receipts.dto';

/** Checking the signed receipts (x402 `offer-receipt`) agora issues: a verifier, and its keys as a did:web document. */
@ApiTags('x402')
@Controller()
export class ReceiptsController {
  constructor(
    private readonly verifier: VerifyReceipt,
    private readonly signer: ReceiptSigner,
  ) {}

  @Post('receipts/verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Checks a signed receipt: its signature under a published key, its shape, and the output and input given',
  })
  @ApiEnvelope(VerifyReceiptResponse)
  @ApiErrors(400, 429)
  verify(@Body() body: VerifyReceiptDto): Promise<ReceiptVerdict> {
    return this.verifier.execute(body);
  }

  @Get('.well-known/did.json')
  @Unwrapped()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'did:web document of this deployment: the receipt keys (JWS kid), current one first' })
  @ApiOkResponse({ description: 'A DID document', schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(429)
  did(): Record<string, unknown> {
    return this.signer.didDocument();
  }
}
