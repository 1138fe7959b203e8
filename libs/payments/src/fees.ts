import { Usdc } from '@app/common';

/** Fees in micro-USDC (spec §1, resolutions §1). */
export const PLATFORM_FEE = 1_000n; // 0.001 per execution
export const PLATFORM_CUT_BPS = 500n; // 5% of the agent fee
export const REGISTRATION_FEE = 100_000n; // 0.10
export const WITHDRAWAL_FEE = 100_000n; // 0.10, taken from the withdrawn amount
export const WITHDRAWAL_MINIMUM = 1_000_000n; // 1.00

/** cut = half-up 5% of the agent fee; earnings = fee - cut, so they always sum to the fee. */
export function splitAgentFee(agentFee: bigint): { cut: bigint; earnings: bigint } {
  const cut = Usdc.fromMicros(agentFee).percentBps(PLATFORM_CUT_BPS).micros;
  return { cut, earnings: agentFee - cut };
}

/** The fee rules as one value, for the lib that prices and charges runs (execution). */
export const Fees = { platform: PLATFORM_FEE, split: splitAgentFee } as const;
