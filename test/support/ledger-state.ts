import { randomBytes, randomUUID } from 'node:crypto';
import { Wallet } from 'ethers';
import { WalletAuthContext } from '@app/auth';
import { ChainBudget, ChainsRepository, FinishChain, NewNode } from '@app/chains';
import { newId } from '@app/common';
import { TransactionRunner } from '@app/database';
import { FileDispute, ResolveDispute } from '@app/disputes';
import {
  FailWithdrawal,
  PLATFORM_FEE,
  ProcessRefund,
  ProcessWithdrawal,
  RecordCharge,
  RequestWithdrawal,
} from '@app/payments';
import { Domain, seedAgent } from './medium';
import { signAuth } from './wallets';

/** Ids of the rows of a small valid ledger, one of each kind the checks read, for the tests to corrupt. */
export interface LedgerState {
  payer: string;
  /** Agent A: charges released and held, a withdrawal of each end, an open and a split dispute. */
  earner: string;
  /** Agent B: withdrew all its earnings, then lost a dispute: a debt to the payer, the platform's cut refunded. */
  debtor: string;
  charges: { released: Charge; held: Charge; debtor: Charge };
  withdrawals: { completed: string; pending: string; failed: string };
  /** pending: the split dispute's; completed: the lost dispute's (the platform's cut); chain: the final chain's unspent budget. */
  refunds: { pending: string; completed: string; chain: string };
  disputes: { open: string; split: string; lost: string };
  chains: { running: string; final: string };
}
interface Charge {
  transactionId: string;
  holdId: string;
  paymentId: string;
}

/**
 * Builds the state through the product's use cases (RecordCharge, RequestWithdrawal,
 * ProcessWithdrawal, FailWithdrawal, FileDispute, ResolveDispute, ProcessRefund, ChainBudget,
 * FinishChain); the only raw rows are the settled x402 payments (their settlement is outside).
 */
export async function buildLedgerState(domain: Domain): Promise<LedgerState> {
  const payer = new Wallet(Wallet.createRandom().privateKey);
  const [earner, debtor] = [
    await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' }),
    await seedAgent(domain, { endpoint: 'http://127.0.0.1:9/' }),
  ];
  const charge = (agentId: string, agentFee: bigint, reputation: number) =>
    recordCharge(domain, payer.address, agentId, agentFee, reputation);
  const released = await charge(earner, 5_000_000n, 90); // instant tier: released at once
  const held = await charge(earner, 100_000n, 50); // Standard tier: held
  const frozen = await charge(earner, 100_000n, 50);
  const split = await charge(earner, 100_000n, 90);

  const withdraw = (agentId: string, amount: bigint) =>
    domain
      .get(RequestWithdrawal)
      .execute({ agentId, auth: walletAuth(agentId), amount, destinationWallet: payer.address });
  const completed = await withdraw(earner, 1_000_000n);
  expect(await domain.get(ProcessWithdrawal).execute(completed.id)).toBe('completed');
  const pending = await withdraw(earner, 1_000_000n);
  const failed = await withdraw(earner, 1_000_000n);
  expect(await domain.get(FailWithdrawal).execute(failed.id, 'rpc unreachable')).toBe(true);

  let at = Date.now();
  const file = async (transactionId: string) =>
    (
      await domain.get(FileDispute).execute({
        transactionId,
        reason: 'not delivered',
        evidence: null,
        proof: { payment: null, wallet: payer.address, signature: await signAuth(payer, transactionId, at++) },
      })
    ).id;
  const resolve = (disputeId: string, outcome: 'split' | 'client_wins') =>
    domain.get(ResolveDispute).execute({ disputeId, outcome, note: null, resolvedBy: 'admin' });
  const open = await file(frozen.transactionId);
  const splitDispute = await file(split.transactionId);
  await resolve(splitDispute, 'split');

  const debtorCharge = await charge(debtor, 2_000_000n, 90);
  const all = await withdraw(debtor, 1_900_000n); // all its earnings
  expect(await domain.get(ProcessWithdrawal).execute(all.id)).toBe('completed');
  const lost = await file(debtorCharge.transactionId);
  await resolve(lost, 'client_wins');
  const [refundOf] = await domain.ds.query(`SELECT id FROM refunds WHERE transaction_id = $1`, [
    debtorCharge.transactionId,
  ]);
  expect(await domain.get(ProcessRefund).execute(refundOf.id)).toBe('completed');
  const [pendingRefund] = await domain.ds.query(`SELECT id FROM refunds WHERE transaction_id = $1`, [
    split.transactionId,
  ]);

  const running = await openChain(domain, payer.address);
  const final = await openChain(domain, payer.address);
  const budget = domain.get(ChainBudget);
  await domain
    .get(TransactionRunner)
    .pipelined((sql) => budget.release(sql, final.root, { executionTimeMs: 5, completedAt: new Date() }));
  expect(await domain.get(FinishChain).execute(final.id)).toBe(true);
  const [{ refund_id: chainRefund }] = await domain.ds.query(`SELECT refund_id FROM chains WHERE id = $1`, [final.id]);

  return {
    payer: payer.address.toLowerCase(),
    earner,
    debtor,
    charges: { released, held, debtor: debtorCharge },
    withdrawals: { completed: completed.id, pending: pending.id, failed: failed.id },
    refunds: { pending: pendingRefund.id, completed: refundOf.id, chain: chainRefund },
    disputes: { open, split: splitDispute, lost },
    chains: { running: running.id, final: final.id },
  };
}

/** A settled x402 payment of `value` (its settlement is the facilitator's, outside the system). */
export async function insertSettledPayment(
  sql: { query: (q: string, p: unknown[]) => Promise<unknown> },
  payer: string,
  value: bigint,
  refId: string | null = null,
): Promise<string> {
  const id = newId('pay');
  await sql.query(
    `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                           signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
     VALUES ($1, 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $2, '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
             $3, $4, 0, 9999999999, '0x', 'h', 'execution', $5, 'settled', '0x', now())`,
    [id, payer.toLowerCase(), `0x${randomBytes(32).toString('hex')}`, value.toString(), refId ?? id],
  );
  return id;
}

async function recordCharge(
  domain: Domain,
  payer: string,
  agentId: string,
  agentFee: bigint,
  agentReputation: number,
): Promise<Charge> {
  return domain.ds.transaction(async (em) => {
    const paymentId = await insertSettledPayment(em, payer, PLATFORM_FEE + agentFee);
    const { transaction, hold } = await domain.get(RecordCharge).write(em, {
      paymentId,
      payerWallet: payer,
      requestingAgent: payer,
      agentId,
      agentReputation,
      capabilityId: 'translate',
      agentFee,
      platformFee: PLATFORM_FEE,
      executionTimeMs: 7,
    });
    return { transactionId: transaction.id, holdId: hold.id, paymentId };
  });
}

/** A chain funded by its own settled payment (0.20 budget, 0.011 for the root), its root running. */
async function openChain(domain: Domain, wallet: string): Promise<{ id: string; root: NewNode }> {
  const id = randomUUID();
  const [budget, rootCost] = [200_000n, 11_000n];
  const root: NewNode = {
    executionId: newId('req'),
    chainId: id,
    parentExecutionId: null,
    agentId: randomUUID(),
    capabilityId: 'orchestrate',
    depth: 0,
    spanId: randomBytes(8).toString('hex'),
    reserved: rootCost,
    startedAt: new Date(),
  };
  const now = new Date();
  const chains = domain.get(ChainBudget);
  await domain.get(TransactionRunner).pipelined(async (sql) => {
    const paymentId = await insertSettledPayment(sql, wallet, budget + rootCost, root.executionId);
    await domain.get(ChainsRepository).insert(sql, {
      id,
      rootExecutionId: root.executionId,
      rootAgentId: root.agentId,
      rootWallet: wallet,
      paymentId,
      budget,
      maxDepth: 3,
      traceId: randomBytes(16).toString('hex'),
      startedAt: now,
      expiresAt: new Date(now.getTime() + 300_000),
    });
    await chains.fund(sql, id, budget + rootCost, paymentId);
    await chains.reserve(sql, root, now);
  });
  return { id, root };
}

function walletAuth(agentId: string): WalletAuthContext {
  return {
    agentId,
    wallet: '0x0000000000000000000000000000000000000001',
    timestampMs: Date.now(),
    forChange: true,
    unbound: false,
    messageKey: `${agentId}:${randomUUID()}`,
    expiresAt: new Date(Date.now() + 300_000),
  };
}
