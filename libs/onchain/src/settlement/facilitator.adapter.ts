import { getAddress } from 'ethers';
import { HTTPFacilitatorClient } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { AppConfig } from '@app/config';
import { MAX_TIMEOUT_SECONDS, NETWORKS, PaymentInvalid, PaymentReplayed, VerifiedPayment } from '@app/x402';
import type { ChainSender } from '../chain/chain-sender';
import { facilitatorAuthHeaders } from './facilitator-auth';
import { SettlementFailed } from './settlement-failed';
import {
  SettleRequest,
  SettlementAdapter,
  SettlementUndecided,
  TransferOutcome,
  TransferRequest,
} from './settlement.adapter';

const REQUEST_TIMEOUT_MS = 15_000;

/** The client's VerifyError / SettleError (by name: each entry point of @x402/core bundles its own class). */
function refusal(err: unknown, name: 'VerifyError' | 'SettleError'): boolean {
  return err instanceof Error && err.name === name;
}

/**
 * Settlement through an x402 facilitator (x402.md §3) with the x402 libraries' HTTPFacilitatorClient:
 * POST /verify before the work, POST /settle after it, always as x402 v2 (`paymentPayload` with its
 * `accepted` requirements; v1 clients' authorizations are the same EIP-3009 signature). Calls carry
 * FACILITATOR_AUTH_HEADERS and, with a CDP API key, a fresh JWT (a hosted facilitator such as
 * Coinbase's). Our own checks (signature, amount, nonce reservation) still run first; the
 * facilitator adds the on-chain view. It cannot pay withdrawals, so those go through `payout` (the
 * evm hot wallet) when one is configured.
 */
export class FacilitatorSettlementAdapter extends SettlementAdapter {
  readonly mode = 'facilitator' as const;
  private readonly client: HTTPFacilitatorClient;

  constructor(
    private readonly config: AppConfig,
    private readonly payout: SettlementAdapter | null,
  ) {
    super();
    this.client = new HTTPFacilitatorClient({
      url: config.facilitatorUrl!,
      timeoutMs: REQUEST_TIMEOUT_MS,
      createAuthHeaders: facilitatorAuthHeaders(config),
    });
  }

  async preflight(p: VerifiedPayment): Promise<void> {
    const { payload, requirements } = this.body(p);
    let res: { isValid: boolean; invalidReason?: string };
    try {
      res = await this.client.verify(payload, requirements);
    } catch (err) {
      // A refusal given with an error status (VerifyError) is still a refusal; anything else (refused credentials, no answer) charges nothing.
      if (refusal(err, 'VerifyError'))
        res = { isValid: false, invalidReason: (err as { invalidReason?: string }).invalidReason };
      else
        throw new SettlementFailed(
          'The payment facilitator is unavailable; nothing was charged',
          undefined,
          'unexpected_verify_error',
        );
    }
    if (!res.isValid) {
      const reason = res.invalidReason ?? 'unexpected_verify_error';
      if (/nonce|duplicate|already/i.test(reason))
        throw new PaymentReplayed('This payment authorization has already been used', { reason });
      throw new PaymentInvalid(`The facilitator rejected the payment: ${reason}`, { reason });
    }
  }

  async settle(p: SettleRequest): Promise<{ txHash: string }> {
    const { payload, requirements } = this.body(p);
    let res: { success: boolean; errorReason?: string; transaction?: string };
    try {
      res = await this.client.settle(payload, requirements);
    } catch (err) {
      // No answer (a timeout, a 5xx, a dropped connection): the facilitator may have sent it.
      // Undecided, not failed. A 4xx (a credential refused, a bad request) did nothing.
      if (!refusal(err, 'SettleError') && !/\((4(?!08)\d\d)\)/.test((err as Error).message))
        throw new SettlementUndecided('', `facilitator settle did not answer: ${(err as Error).message}`);
      if (!refusal(err, 'SettleError')) throw new Error(`facilitator settle failed: ${(err as Error).message}`);
      res = { success: false, errorReason: (err as { errorReason?: string }).errorReason };
    }
    if (!res.success || !res.transaction) {
      const reason = res.errorReason ?? 'unknown';
      // Refused as used already: perhaps by our own earlier call whose answer was lost.
      if (/nonce|duplicate|already/i.test(reason))
        throw new SettlementUndecided('', `facilitator says the authorization was used: ${reason}`);
      throw new Error(`facilitator settle failed: ${reason}`);
    }
    return { txHash: res.transaction };
  }

  override chainSender(): ChainSender | null {
    return this.payout?.chainSender() ?? null;
  }

  async authorizationUsed(p: SettleRequest): Promise<boolean> {
    return this.payout ? this.payout.authorizationUsed(p) : false;
  }

  override get readsChain(): boolean {
    return this.payout !== null;
  }

  /** The facilitator cannot be asked; the chain can, through the hot wallet's connection when one is configured. */
  async settlementOf(p: SettleRequest): Promise<string | null> {
    return this.payout ? this.payout.settlementOf(p) : null;
  }

  async transfer(req: TransferRequest): Promise<TransferOutcome> {
    if (!this.payout)
      throw new Error(
        'facilitator mode pays withdrawals from the evm hot wallet: set EVM_RPC_URL, USDC_ADDRESS and RELAYER_PRIVATE_KEY',
      );
    return this.payout.transfer(req);
  }

  /** The payment as an x402 v2 payload and the v2 requirements it was made against (network as CAIP-2). */
  private body(p: SettleRequest | VerifiedPayment): { payload: PaymentPayload; requirements: PaymentRequirements } {
    const network = NETWORKS[p.network as keyof typeof NETWORKS];
    const authorization = {
      from: getAddress(p.payer),
      to: getAddress(p.payTo),
      value: p.value.toString(),
      validAfter: p.validAfter.toString(),
      validBefore: p.validBefore.toString(),
      nonce: p.nonce,
    };
    const requirements: PaymentRequirements = {
      scheme: 'exact',
      network: network.caip2 as PaymentRequirements['network'],
      amount: p.value.toString(),
      asset: getAddress(p.asset),
      payTo: getAddress(p.payTo),
      maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      extra: { name: network.eip712Name, version: '2' },
    };
    const resource = { url: this.config.publicBaseUrl, description: 'agora payment', mimeType: 'application/json' };
    return {
      payload: { x402Version: 2, resource, accepted: requirements, payload: { signature: p.signature, authorization } },
      requirements,
    };
  }
}
