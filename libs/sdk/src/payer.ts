import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { SpendCapExceededError } from './errors';
import { formatMicros, toMicros } from './money';
import { AgoraSigner } from './signer';

export interface SpendCaps {
  /** Most one call may pay (USDC, "0.50"). */
  perCall: string | bigint;
  /** Most this client may sign for over its life (USDC). */
  perSession: string | bigint;
}

/** What one paid call sent: the payment header (the proof needed to read an async output later) and its amount. */
export interface PaymentSent {
  header: { name: string; value: string };
  amount: bigint;
}

/**
 * Pays x402 challenges with the public client (`@x402/fetch` + `@x402/evm`, v1 and v2) under two
 * caps checked before anything is signed: per call and per session. The session counts every
 * authorization signed (a signed authorization can be settled until it expires, whether or not the
 * call succeeded), so the caps are never exceeded.
 */
export class Payer {
  private spent = 0n;
  private readonly perCall: bigint;
  private readonly perSession: bigint;

  constructor(
    private readonly signer: AgoraSigner,
    caps: SpendCaps,
  ) {
    this.perCall = toMicros(caps.perCall);
    this.perSession = toMicros(caps.perSession);
  }

  /** Micro-USDC signed for so far. */
  get sessionSpent(): bigint {
    return this.spent;
  }

  get remaining(): bigint {
    return this.perSession - this.spent;
  }

  /** Throws SpendCapExceededError if `amount` may not be paid now (what the call would pay at most). */
  check(amount: bigint, perCall = this.perCall): void {
    if (amount > perCall) {
      throw new SpendCapExceededError('SPEND_CAP_EXCEEDED', `This call would pay ${formatMicros(amount)} USDC, above the per-call cap of ${formatMicros(perCall)}`, 0, {
        amount: formatMicros(amount),
        perCall: formatMicros(perCall),
      });
    }
    if (this.spent + amount > this.perSession) {
      throw new SpendCapExceededError(
        'SPEND_CAP_EXCEEDED',
        `This call would pay ${formatMicros(amount)} USDC; ${formatMicros(this.remaining)} is left of the session cap of ${formatMicros(this.perSession)}`,
        0,
        { amount: formatMicros(amount), perSession: formatMicros(this.perSession), spent: formatMicros(this.spent) },
      );
    }
  }

  /**
   * Sends one request, paying its 402 challenge if there is one (at most `perCall`, default the
   * client's cap). Answers the response and what was paid (null when nothing was asked).
   */
  async fetch(request: Request, perCall?: bigint): Promise<{ response: Response; paid: PaymentSent | null }> {
    const cap = perCall !== undefined && perCall < this.perCall ? perCall : this.perCall;
    let refused: SpendCapExceededError | null = null;
    let paid: PaymentSent | null = null;
    let pending = 0n;
    const client = registerExactEvmScheme(new x402Client(), {
      signer: {
        address: this.signer.address as `0x${string}`,
        signTypedData: ({ domain, types, message }) => {
          const { EIP712Domain: _domain, ...rest } = types as Record<string, { name: string; type: string }[]>;
          return this.signer.signTypedData(domain as Record<string, unknown>, rest, message as Record<string, unknown>) as Promise<`0x${string}`>;
        },
      },
    });
    // Our caps replace the library's default $1 per payment (they are checked in micro-USDC, per session too).
    client.setSpendControls(false);
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      const r = selectedRequirements as { amount?: string; maxAmountRequired?: string };
      const amount = BigInt(r.amount ?? r.maxAmountRequired ?? '0');
      try {
        this.check(amount, cap);
      } catch (err) {
        refused = err as SpendCapExceededError;
        return { abort: true, reason: refused.message };
      }
      // Counted before signing, so concurrent calls cannot together pass the session cap.
      this.spent += amount;
      pending = amount;
    });
    client.onPaymentCreationFailure(async () => {
      this.spent -= pending;
      pending = 0n;
    });
    const capture = (input: Request) => {
      const headers = input.headers;
      for (const name of ['PAYMENT-SIGNATURE', 'X-PAYMENT']) {
        const value = headers.get(name);
        if (value) paid = { header: { name, value }, amount: pending };
      }
      return fetch(input);
    };
    try {
      const response = await wrapFetchWithPayment(capture as typeof fetch, client)(request);
      return { response, paid };
    } catch (err) {
      if (refused) throw refused;
      throw err;
    }
  }
}
