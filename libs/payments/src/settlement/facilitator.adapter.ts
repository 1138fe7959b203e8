import { getAddress } from 'ethers';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { NETWORKS } from '../x402/networks';
import { MAX_TIMEOUT_SECONDS } from '../x402/x402.service';
import { VerifiedPayment } from '../x402/x402.types';
import type { ChainSender } from '../chain/chain-sender';
import { SettleRequest, SettlementAdapter, TransferOutcome, TransferRequest } from './settlement.adapter';

const REQUEST_TIMEOUT_MS = 15_000;

interface VerifyResponse {
  isValid: boolean;
  invalidReason?: string;
  payer?: string;
}

interface SettleResponse {
  success: boolean;
  errorReason?: string;
  transaction?: string;
  network?: string;
  payer?: string;
}

/**
 * Settlement through an x402 facilitator (x402.md §3): POST /verify before the work, POST /settle
 * after it, with `{x402Version, paymentPayload, paymentRequirements}`. Our own checks (signature,
 * amount, nonce reservation) still run first; the facilitator adds the on-chain view. It cannot pay
 * withdrawals, so those go through `payout` (the evm hot wallet) when one is configured.
 */
export class FacilitatorSettlementAdapter extends SettlementAdapter {
  readonly mode = 'facilitator' as const;
  private readonly url: string;

  constructor(
    private readonly config: AppConfig,
    private readonly payout: SettlementAdapter | null,
  ) {
    super();
    this.url = config.facilitatorUrl!.replace(/\/+$/, '');
  }

  async preflight(p: VerifiedPayment): Promise<void> {
    let res: VerifyResponse;
    try {
      res = await this.call<VerifyResponse>('/verify', this.body(p));
    } catch {
      throw new AppException('SETTLEMENT_FAILED', 'The payment facilitator is unavailable; nothing was charged', { reason: 'unexpected_verify_error' });
    }
    if (!res.isValid) {
      const reason = res.invalidReason ?? 'unexpected_verify_error';
      if (/nonce|duplicate|already/i.test(reason)) throw new AppException('PAYMENT_REPLAYED', 'This payment authorization has already been used', { reason });
      throw new AppException('PAYMENT_INVALID', `The facilitator rejected the payment: ${reason}`, { reason });
    }
  }

  async settle(p: SettleRequest): Promise<{ txHash: string }> {
    const res = await this.call<SettleResponse>('/settle', this.body(p));
    if (!res.success || !res.transaction) throw new Error(`facilitator settle failed: ${res.errorReason ?? 'unknown'}`);
    return { txHash: res.transaction };
  }

  override chainSender(): ChainSender | null {
    return this.payout?.chainSender() ?? null;
  }

  async authorizationUsed(p: SettleRequest): Promise<boolean> {
    return this.payout ? this.payout.authorizationUsed(p) : false;
  }

  /** The facilitator cannot be asked; the chain can, through the hot wallet's connection when one is configured. */
  async settlementOf(p: SettleRequest): Promise<string | null> {
    return this.payout ? this.payout.settlementOf(p) : null;
  }

  async transfer(req: TransferRequest): Promise<TransferOutcome> {
    if (!this.payout) throw new Error('facilitator mode pays withdrawals from the evm hot wallet: set EVM_RPC_URL, USDC_ADDRESS and RELAYER_PRIVATE_KEY');
    return this.payout.transfer(req);
  }

  /** The facilitator request body: the payment as a v1 payload against our v1 requirement. */
  private body(p: SettleRequest | VerifiedPayment) {
    const network = NETWORKS[p.network as keyof typeof NETWORKS];
    const authorization = {
      from: getAddress(p.payer),
      to: getAddress(p.payTo),
      value: p.value.toString(),
      validAfter: p.validAfter.toString(),
      validBefore: p.validBefore.toString(),
      nonce: p.nonce,
    };
    return {
      x402Version: 1,
      paymentPayload: { x402Version: 1, scheme: 'exact', network: p.network, payload: { signature: p.signature, authorization } },
      paymentRequirements: {
        scheme: 'exact',
        network: p.network,
        maxAmountRequired: p.value.toString(),
        resource: this.config.publicBaseUrl,
        description: 'agora payment',
        mimeType: 'application/json',
        payTo: getAddress(p.payTo),
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
        asset: getAddress(p.asset),
        extra: { name: network?.eip712Name ?? 'USDC', version: '2' },
      },
    };
  }

  private async call<T>(path: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new Error(`facilitator ${path} unreachable: ${(err as Error).message}`);
    }
    if (!res.ok) throw new Error(`facilitator ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }
}
