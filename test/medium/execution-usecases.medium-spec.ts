import { Wallet } from 'ethers';
import { AppException, newId } from '@app/common';
import {
  AdmitExecution,
  ChargeExecution,
  ExecuteCommand,
  ExecuteRejected,
  ExecutionEntity,
  ExecutionsRepository,
  FundingSource,
  RetryExecution,
} from '@app/execution';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { PAYMENT_CHECKS, PaymentsRepository, PLATFORM_FEE } from '@app/payments';
import { X402Service } from '@app/x402';
import { TestAgentServer } from '../support/agent-server';
import { Domain, seedAgent, startDomain } from '../support/medium';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = PLATFORM_FEE + 10_000n;

/** Admission, the charger and retry, called directly against real Postgres and Redis (no HTTP). */
describe('execution use cases (medium)', () => {
  let domain: Domain;
  let agent: TestAgentServer;
  let agentId: string;

  beforeAll(async () => {
    agent = await new TestAgentServer().start();
    domain = await startDomain();
    agentId = await seedAgent(domain, { endpoint: agent.url });
  });
  afterAll(async () => {
    await domain.close();
    await agent.stop();
  });

  const payment = async (payer: Wallet = newWallet(), amount = PRICE) => {
    const h = await x402Header(payer, { amount, payTo: domain.config.platformWallet });
    return { value: h.value, version: (h.name === 'X-PAYMENT' ? 1 : 2) as 1 | 2 };
  };
  const command = (o: Partial<ExecuteCommand> = {}): ExecuteCommand => ({
    agentId,
    capabilityId: 'translate',
    input: { text: 'hello' },
    async: false,
    payment: null,
    clientIp: `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    ...o,
  });
  const refusal = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ExecuteRejected);
    return err as ExecuteRejected;
  };
  const charges = async () => (await domain.ds.query(`SELECT count(*)::int AS n FROM transactions`))[0].n as number;

  describe('admission', () => {
    it('offers the price as data when no payment comes, and counts the caller by IP, not against the agent', async () => {
      const admit = domain.get(AdmitExecution);
      const first = await refusal(admit.execute(command()));
      const second = await refusal(admit.execute(command()));
      expect((first.error as AppException).code).toBe('PAYMENT_REQUIRED');
      expect((first.error as AppException).offer).toMatchObject({ accepts: [{ maxAmountRequired: PRICE.toString() }] });
      expect(second.limits.agentRemaining).toBe(first.limits.agentRemaining);
    });

    it('a payment that does not verify is refused and leaves the agent window as it was', async () => {
      const admit = domain.get(AdmitExecution);
      const bad = await refusal(admit.execute(command({ payment: await payment(newWallet(), PRICE - 1n) })));
      expect((bad.error as AppException).code).toBe('PAYMENT_INVALID');
      const again = await refusal(admit.execute(command({ payment: await payment(newWallet(), PRICE - 1n) })));
      expect(again.limits.agentRemaining).toBe(bad.limits.agentRemaining);
    });

    it('admits a verified payment with its funding and its nonce claim; the same header again is refused and its agent slot given back', async () => {
      const admit = domain.get(AdmitExecution);
      const payer = newWallet();
      const p = await payment(payer);
      const admitted = await admit.execute(command({ payment: p }));
      expect(admitted.kind).toBe('admitted');
      if (admitted.kind !== 'admitted') return;
      expect(admitted.funding.payer).toBe(payer.address.toLowerCase());
      expect(admitted.funding.proofHash).toBe(X402Service.hashHeader(p.value));
      expect(admitted.price.amount).toBe(PRICE);
      const replay = await refusal(admit.execute(command({ payment: p })));
      expect((replay.error as AppException).code).toBe('PAYMENT_REPLAYED');
      // The refused request had taken a slot in the agent's window: it is back.
      const probe = await refusal(admit.execute(command()));
      expect(probe.limits.agentRemaining).toBe(admitted.limits.agentRemaining);
    });
  });

  describe('charger', () => {
    /** A completed execution whose settlement and charge never happened (a crash after the run). */
    async function completedUncharged(): Promise<ExecutionEntity> {
      const admitted = await domain.get(AdmitExecution).execute(command({ payment: await payment() }));
      if (admitted.kind !== 'admitted') throw new Error('not admitted');
      const id = newId('req');
      await domain.ds.transaction(async (m) => {
        await admitted.funding.reserve(m, id);
        await m.query(
          `INSERT INTO executions (id, agent_id, capability_id, payer, input, output, status, settlement_status, execution_time_ms, agent_fee, authorized_agent_fee,
                                   pricing_model, unit_price, platform_fee, payment_id, header_hash, is_async, completed_at)
           VALUES ($1, $2, 'translate', $3, '{}', '{"translation":"x"}', 'completed', 'settlement_pending', 5, 10000, 10000, 'per-request', 10000, $4, $5, 'h', false, now())`,
          [id, agentId, admitted.funding.payer, PLATFORM_FEE.toString(), admitted.funding.id],
        );
      });
      return (await domain.get(ExecutionsRepository).findById(id))!;
    }

    it('charges a completed execution left uncharged, once, even when two finishers race', async () => {
      const execution = await completedUncharged();
      const before = await charges();
      const charger = domain.get(ChargeExecution);
      const funding = () => domain.get(FundingSource).stored(execution.paymentId!);
      const outcomes = await Promise.all([
        charger.execute({
          state: 'completed',
          execution: { ...execution } as ExecutionEntity,
          funding: await funding(),
        }),
        charger.execute({
          state: 'completed',
          execution: { ...execution } as ExecutionEntity,
          funding: await funding(),
        }),
      ]);
      expect(outcomes.map((o) => o.execution.settlementStatus)).toEqual(['settled', 'settled']);
      expect(outcomes.filter((o) => o.settlement !== null)).toHaveLength(1);
      expect(await charges()).toBe(before + 1);
      const again = await charger.execute({
        state: 'completed',
        execution: (await domain.get(ExecutionsRepository).findById(execution.id))!,
        funding: await funding(),
      });
      expect(again.settlement).toBeNull();
      expect(await charges()).toBe(before + 1);
      expect(await domain.get(PaymentsRepository).get(execution.paymentId!)).toMatchObject({
        status: 'settled',
        refId: execution.id,
      });
      expect(
        (await runInvariantChecks(domain.ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
          (r) => r.violations.length,
        ),
      ).toEqual([]);
    });
  });

  describe('retry', () => {
    it('needs no payment header (the contract); another payment is FORBIDDEN; it runs once and is charged once', async () => {
      const p = await payment();
      const admitted = await domain.get(AdmitExecution).execute(command({ payment: p, input: { text: 'retry me' } }));
      if (admitted.kind !== 'admitted') throw new Error('not admitted');
      // A failed run, as the runner leaves it: reservation kept, execution failed.
      const id = newId('req');
      await domain.ds.transaction(async (m) => {
        await admitted.funding.reserve(m, id);
        await m.query(
          `INSERT INTO executions (id, agent_id, capability_id, payer, input, status, agent_error, agent_fee, authorized_agent_fee, pricing_model, unit_price, platform_fee,
                                   payment_id, header_hash, is_async, completed_at)
           VALUES ($1, $2, 'translate', $3, '{"text":"retry me"}', 'failed', 'boom', 10000, 10000, 'per-request', 10000, $4, $5, $6, false, now())`,
          [
            id,
            agentId,
            admitted.funding.payer,
            PLATFORM_FEE.toString(),
            admitted.funding.id,
            admitted.funding.proofHash,
          ],
        );
      });
      const retry = domain.get(RetryExecution);
      await expect(retry.execute(id, await payment())).rejects.toMatchObject({ code: 'FORBIDDEN' });
      const before = await charges();
      // The contract's retry carries no payment header; the stored authorization pays it (once).
      const done = await retry.execute(id, null);
      expect(done.execution).toMatchObject({ status: 'completed', settlementStatus: 'settled', retryCount: 1 });
      expect(await charges()).toBe(before + 1);
      await expect(retry.execute(id, p)).rejects.toMatchObject({ code: 'INVALID_STATE' });
      await expect(retry.execute(id, null)).rejects.toMatchObject({ code: 'INVALID_STATE' });
      expect(await charges()).toBe(before + 1);
    });
  });
});
