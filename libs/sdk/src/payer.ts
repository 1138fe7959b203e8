import { PaymentRefusedError, SpendCapExceededError } from './errors';
import { formatMicros, toMicros } from './money';
import { AgoraSigner } from './signer';

/**
 * The x402 client libraries, loaded at the first payment: `@x402/evm` brings viem (about 0.2 s to
 * load), which a process that never pays (most CLI commands, an agent's kit) need not wait for.
 */
const importX402 = () => Promise.all([import('@x402/fetch'), import('@x402/evm/exact/client')]);
let x402Libraries: ReturnType<typeof importX402> | null = null;
const loadX402 = () => (x402Libraries ??= importX402());

export interface SpendCaps {
  /** Most one call may pay (USDC, "0.50"). */
  perCall: string | bigint;
  /** Most this client may sign for over its life (USDC). */
  perSession: string | bigint;
}

/** USDC's contracts on the networks agora offers (x402 v2 CAIP-2 ids and v1 names). */
export const USDC_ASSETS: Record<string, string> = {
  'eip155:8453': '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  'eip155:84532': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  'base-sepolia': '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  'eip155:1': '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
  ethereum: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
};

/** Parses "network=0xaddress,..." (a CAIP-2 id or a v1 name each) into extra payable assets. */
export function parseAllowedAssets(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [network, address] = pair.split('=');
    if (!network || !/^0x[0-9a-fA-F]{40}$/.test(address ?? ''))
      throw new RangeError(`"${pair}" is not network=0xaddress`);
    out[network] = address;
  }
  return out;
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

  private readonly assets: Record<string, string>;

  constructor(
    private readonly signer: AgoraSigner,
    caps: SpendCaps,
    /** Extra payable assets by network (a local chain's token): `{ 'eip155:84532': '0x...' }`. USDC's are always allowed. */
    allowedAssets: Record<string, string> = {},
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.perCall = toMicros(caps.perCall);
    this.perSession = toMicros(caps.perSession);
    this.assets = { ...USDC_ASSETS, ...allowedAssets };
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
      throw new SpendCapExceededError(
        'SPEND_CAP_EXCEEDED',
        `This call would pay ${formatMicros(amount)} USDC, above the per-call cap of ${formatMicros(perCall)}`,
        0,
        {
          amount: formatMicros(amount),
          perCall: formatMicros(perCall),
        },
      );
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
  /**
   * Sends `request`, paying its 402 within the caps. `onSigned` hears of the payment as soon as it is
   * sent, so the caller keeps the proof even when no answer comes back (a timeout, a lost connection).
   */
  async fetch(
    request: Request,
    perCall?: bigint,
    onSigned?: (p: PaymentSent) => void,
  ): Promise<{ response: Response; paid: PaymentSent | null }> {
    const cap = perCall !== undefined && perCall < this.perCall ? perCall : this.perCall;
    let refused: SpendCapExceededError | PaymentRefusedError | null = null;
    let paid: PaymentSent | null = null;
    let pending = 0n;
    const [{ x402Client, wrapFetchWithPayment }, { registerExactEvmScheme }] = await loadX402();
    const client = registerExactEvmScheme(new x402Client(), {
      signer: {
        address: this.signer.address as `0x${string}`,
        signTypedData: ({ domain, types, message }) => {
          const { EIP712Domain: _domain, ...rest } = types as Record<string, { name: string; type: string }[]>;
          return this.signer.signTypedData(
            domain as Record<string, unknown>,
            rest,
            message as Record<string, unknown>,
          ) as Promise<`0x${string}`>;
        },
      },
    });
    // Our caps replace the library's default $1 per payment (they are checked in micro-USDC, per session too).
    client.setSpendControls(false);
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      try {
        const amount = this.admissible(selectedRequirements as unknown as Requirement);
        this.check(amount, cap);
        // Counted before signing, so concurrent calls cannot together pass the session cap.
        this.spent += amount;
        pending = amount;
      } catch (err) {
        refused = err as SpendCapExceededError;
        return { abort: true, reason: refused.message };
      }
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
      if (paid) onSigned?.(paid);
      return this.fetchImpl(input);
    };
    try {
      const response = await wrapFetchWithPayment(capture as typeof fetch, client)(request);
      return { response, paid };
    } catch (err) {
      if (refused) throw refused;
      throw err;
    }
  }

  /** The amount a requirement asks for, if it is one this client pays: exact scheme, an allowed USDC on its network, a positive integer amount. */
  private admissible(r: Requirement): bigint {
    const raw = r.amount ?? r.maxAmountRequired ?? '';
    const allowed = this.assets[r.network];
    const refuse = (why: string) =>
      new PaymentRefusedError(
        'PAYMENT_NOT_ALLOWED',
        `The payment asked for was refused: ${why}; nothing was signed`,
        0,
        { network: r.network, asset: r.asset, amount: raw },
      );
    if (r.scheme !== 'exact') throw refuse(`scheme ${String(r.scheme)} is not paid by this client`);
    if (!allowed || typeof r.asset !== 'string' || r.asset.toLowerCase() !== allowed.toLowerCase())
      throw refuse(`asset ${String(r.asset)} on ${String(r.network)} is not an allowed USDC`);
    if (!/^\d{1,30}$/.test(raw) || BigInt(raw) <= 0n)
      throw refuse(`amount ${raw} is not a positive number of micro-USDC`);
    return BigInt(raw);
  }
}

interface Requirement {
  scheme?: string;
  network: string;
  asset?: string;
  amount?: string;
  maxAmountRequired?: string;
}
