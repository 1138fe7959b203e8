import { randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { CapabilityInput, RegisterAgent } from '@app/agents';
import { ROLLUP_CHECKS } from '@app/analytics';
import { WalletAuthContext } from '@app/auth';
import { Clock } from '@app/common';
import { DISPUTE_CHECKS, DisputeOutcome, FileDispute, ResolveDispute } from '@app/disputes';
import { Execute, ExecuteResult } from '@app/execution';
import { Accounts, LEDGER_CHECKS, LedgerService, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, PLATFORM_FEE, ProcessWithdrawal, RequestWithdrawal } from '@app/payments';
import { PresentedPayment } from '@app/x402';
import { TestAgentServer } from './agent-server';
import { Domain, startDomain } from './medium';
import { newWallet } from './wallets';
import { x402Header } from './x402';

/** A registered agent: its id and the wallet that registered it (and paid its fee). */
export interface MoneyAgent {
  id: string;
  wallet: Wallet;
}

/** A paid, charged execution: what its payer holds (the payment header) and what it made. */
export interface PaidCall extends ExecuteResult {
  transactionId: string;
  requestId: string;
  payer: Wallet;
  payment: PresentedPayment;
}

/** An agent's ledger accounts, in micro-USDC. */
export interface AgentBalances {
  available: bigint;
  escrow: bigint;
  frozen: bigint;
  owed: bigint;
  withdrawing: bigint;
}

/**
 * Money rows for medium specs, in the shape of Immich's medium tests (`ctx.newUser()`, `ctx.newAsset()`):
 * every factory earns through the product's own use cases (RegisterAgent with its x402 fee, a paid
 * Execute in local settlement, FileDispute, ResolveDispute, RequestWithdrawal, ProcessWithdrawal), never
 * by raw INSERT. The domain runs with production defaults (rolling reserve on) unless `env` says otherwise.
 */
export class MoneyContext {
  private constructor(
    readonly domain: Domain,
    readonly agentServer: TestAgentServer,
  ) {}

  static async start(env: Record<string, string> = {}, opts: { clock?: Clock } = {}): Promise<MoneyContext> {
    const agentServer = await new TestAgentServer().start();
    // startDomain turns the reserve off for the older specs; the production default is on.
    const domain = await startDomain({ WITHDRAWAL_RESERVE: 'on', ...env }, opts);
    return new MoneyContext(domain, agentServer);
  }

  get<T>(type: new (...args: never[]) => T): T {
    return this.domain.get(type);
  }

  /** A settled x402 payment header of `amount` signed by `payer`, to the platform. */
  async newPayment(payer: Wallet, amount: bigint): Promise<PresentedPayment> {
    const h = await x402Header(payer, { amount, payTo: this.domain.config.platformWallet });
    return { value: h.value, version: h.name === 'X-PAYMENT' ? 1 : 2 };
  }

  /**
   * An agent registered by RegisterAgent (its 0.10 fee paid by its wallet) at the test agent server,
   * with `translate` per request at `price` (default 0.01) and any other capabilities. `reputation`
   * sets the score its charges' holds read (a precondition, not money).
   */
  async newAgent(
    o: { price?: bigint; reputation?: number; wallet?: Wallet; capabilities?: CapabilityInput[] } = {},
  ): Promise<MoneyAgent> {
    const wallet = o.wallet ?? newWallet();
    const translate: CapabilityInput = {
      id: 'translate',
      name: 'Translate text',
      description: 'Translates text',
      inputSchema: { type: 'object' },
      pricing: { model: 'per-request', basePrice: o.price ?? 10_000n, currency: 'USDC' },
    };
    const registered = await this.get(RegisterAgent).execute(
      {
        wallet: wallet.address,
        name: 'Medium agent',
        capabilities: [translate, ...(o.capabilities ?? [])],
        endpoints: { execution: this.agentServer.url },
      },
      {
        payment: await this.newPayment(wallet, 100_000n),
        resource: `${this.domain.config.publicBaseUrl}/api/v1/agents`,
      },
    );
    if (!registered.agent) throw new Error('registration not confirmed');
    const id = registered.agent.id;
    if (o.reputation !== undefined)
      await this.domain.ds.query(`UPDATE agents SET reputation_score = $2 WHERE id = $1`, [id, o.reputation]);
    return { id, wallet };
  }

  /**
   * A sync execute paid by `payer` (default a new wallet) with `amount` (default the platform fee plus
   * `agentFee`, default 0.01), charged through Execute in local settlement; fails unless it was charged.
   */
  async newCharge(
    agentId: string,
    o: {
      payer?: Wallet;
      agentFee?: bigint;
      amount?: bigint;
      capabilityId?: string;
      input?: Record<string, unknown>;
    } = {},
  ): Promise<PaidCall> {
    const payer = o.payer ?? newWallet();
    const payment = await this.newPayment(payer, o.amount ?? PLATFORM_FEE + (o.agentFee ?? 10_000n));
    const result = await this.get(Execute).execute({
      agentId,
      capabilityId: o.capabilityId ?? 'translate',
      input: o.input ?? { text: 'bonjour' },
      async: false,
      payment,
      clientIp: `10.${rnd()}.${rnd()}.${rnd()}`,
    });
    const { id, transactionId } = result.execution;
    if (!transactionId) throw new Error(`execution ${id} was not charged (${result.execution.status})`);
    return { ...result, transactionId, requestId: id, payer, payment };
  }

  /** FileDispute by the call's payer, its payment header the proof (as local settlement takes it). */
  newDispute(call: PaidCall, o: { reason?: string } = {}) {
    return this.get(FileDispute).execute({
      transactionId: call.transactionId,
      reason: o.reason ?? 'The translation was empty',
      evidence: null,
      proof: { payment: call.payment },
    });
  }

  /** ResolveDispute as the admin's route calls it. */
  async resolve(disputeId: string, outcome: DisputeOutcome, o: { note?: string; advance?: boolean } = {}) {
    const view = await this.get(ResolveDispute).execute({
      disputeId,
      outcome,
      note: o.note ?? null,
      resolvedBy: 'admin',
      advance: o.advance === true,
    });
    return view!;
  }

  /** RequestWithdrawal by the agent's wallet; `process` pays it out at once (ProcessWithdrawal, local settlement). */
  async newWithdrawal(agent: MoneyAgent, amount: bigint, o: { process?: boolean; destination?: string } = {}) {
    const withdrawal = await this.get(RequestWithdrawal).execute({
      agentId: agent.id,
      auth: walletAuth(agent),
      amount,
      destinationWallet: o.destination ?? newWallet().address,
    });
    if (o.process && (await this.get(ProcessWithdrawal).execute(withdrawal.id)) !== 'completed')
      throw new Error(`withdrawal ${withdrawal.id} was not completed`);
    return withdrawal;
  }

  /** The agent's accounts, read through the ledger (0 for an account never used). */
  async balances(agentId: string): Promise<AgentBalances> {
    const codes = {
      available: Accounts.agentAvailable(agentId).code,
      escrow: Accounts.agentEscrow(agentId).code,
      frozen: Accounts.agentFrozen(agentId).code,
      owed: Accounts.agentOwed(agentId).code,
      withdrawing: Accounts.agentWithdrawing(agentId).code,
    };
    const b = await this.get(LedgerService).balances(this.domain.ds.manager, Object.values(codes));
    return {
      available: b.get(codes.available)!,
      escrow: b.get(codes.escrow)!,
      frozen: b.get(codes.frozen)!,
      owed: b.get(codes.owed)!,
      withdrawing: b.get(codes.withdrawing)!,
    };
  }

  /** What the platform owes the payer now (`payable`) and what agents owe it on disputes it won (`due`). */
  async payerBalances(payer: Wallet | string): Promise<{ payable: bigint; due: bigint }> {
    const wallet = typeof payer === 'string' ? payer : payer.address;
    const [payable, due] = [Accounts.clientRefundPayable(wallet).code, Accounts.clientRefundDue(wallet).code];
    const b = await this.get(LedgerService).balances(this.domain.ds.manager, [payable, due]);
    return { payable: b.get(payable)!, due: b.get(due)! };
  }

  /** The platform's revenue (the sum of its shards). */
  async revenue(): Promise<bigint> {
    return this.get(LedgerService).balance(this.domain.ds.manager, Accounts.platformRevenue().code);
  }

  /** The checks that fail: ledger, payments, disputes and roll-ups. */
  async violations() {
    const report = await runInvariantChecks(this.domain.ds.manager, [
      ...LEDGER_CHECKS,
      ...PAYMENT_CHECKS,
      ...DISPUTE_CHECKS,
      ...ROLLUP_CHECKS,
    ]);
    return report.results.filter((r) => r.violations.length);
  }

  async close(): Promise<void> {
    await this.domain.close();
    await this.agentServer.stop();
  }
}

const rnd = () => Math.floor(Math.random() * 250);

/** The agent wallet's signed change, as the transport's guard hands it to a use case. */
export function walletAuth(agent: MoneyAgent): WalletAuthContext {
  return {
    agentId: agent.id,
    wallet: agent.wallet.address.toLowerCase(),
    timestampMs: Date.now(),
    forChange: true,
    unbound: false,
    messageKey: `${agent.id}:${randomUUID()}`,
    expiresAt: new Date(Date.now() + 300_000),
  };
}
