/**
 * Account codes and their bounds. Every hold (escrow, dispute freeze, withdrawal, chain budget)
 * is money in its own account, so "stuck money" is a query and I5 can compare holds to rows.
 */
/** `chain_inflight`: accounts of chains that ran before reservations moved to the chain row (emptied by migration ChainReservations). */
export type AccountKind =
  | 'world'
  | 'revenue'
  | 'available'
  | 'escrow'
  | 'frozen'
  | 'withdrawing'
  | 'owed'
  | 'refund_payable'
  | 'refund_due'
  | 'chain_budget'
  | 'chain_inflight';

export interface AccountRef {
  code: string;
  kind: AccountKind;
  ownerId: string | null;
  min: bigint | null;
  max: bigint | null;
  /** One of the platform's hot accounts: stored as shards (ledger-shards.ts); `code` names them all. */
  sharded?: boolean;
}

const nonNegative = (code: string, kind: AccountKind, ownerId: string | null): AccountRef => ({
  code,
  kind,
  ownerId,
  min: 0n,
  max: null,
});

export const Accounts = {
  /** USDC on chain, outside the platform: goes negative as money comes in. In shards (ledger-shards.ts). */
  worldChain: (): AccountRef => ({
    code: 'world:chain',
    kind: 'world',
    ownerId: null,
    min: null,
    max: null,
    sharded: true,
  }),
  /** What the platform earned (fees and cuts), in shards like world:chain. */
  platformRevenue: (): AccountRef => ({ ...nonNegative('platform:revenue', 'revenue', null), sharded: true }),
  agentAvailable: (agentId: string) => nonNegative(`agent:${agentId}:available`, 'available', agentId),
  agentEscrow: (agentId: string) => nonNegative(`agent:${agentId}:escrow`, 'escrow', agentId),
  agentFrozen: (agentId: string) => nonNegative(`agent:${agentId}:frozen`, 'frozen', agentId),
  agentWithdrawing: (agentId: string) => nonNegative(`agent:${agentId}:withdrawing`, 'withdrawing', agentId),
  /** What the agent owes (agent_debts): to payers whose dispute refunds reached withdrawn earnings, or to the platform for an admin's advance. Never positive. */
  agentOwed: (agentId: string): AccountRef => ({
    code: `agent:${agentId}:owed`,
    kind: 'owed',
    ownerId: agentId,
    min: null,
    max: 0n,
  }),
  clientRefundPayable: (wallet: string) =>
    nonNegative(`client:${wallet.toLowerCase()}:refund_payable`, 'refund_payable', wallet.toLowerCase()),
  /** What agents owe this payer on disputes it won (agent_debts): refunded to it as their later earnings repay it. */
  clientRefundDue: (wallet: string) =>
    nonNegative(`client:${wallet.toLowerCase()}:refund_due`, 'refund_due', wallet.toLowerCase()),
  chainBudget: (chainId: string) => nonNegative(`chain:${chainId}:budget`, 'chain_budget', chainId),
};

export interface Leg {
  account: AccountRef;
  /** Signed micro-USDC: positive flows into the account. */
  amount: bigint;
}

/** A transfer of `amount` from one account to another, as two legs. */
export function transfer(from: AccountRef, to: AccountRef, amount: bigint): Leg[] {
  return [
    { account: from, amount: -amount },
    { account: to, amount },
  ];
}
