import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { FixedClock } from '@app/common';
import { Accounts, LedgerService } from '@app/ledger';
import {
  FailWithdrawal,
  ProcessWithdrawal,
  ReleaseHold,
  RequestWithdrawal as RequestWithdrawalUseCase,
} from '@app/payments';
import { startApi, ApiHarness } from '../support/api-harness';
import { CLIENT_WALLET } from '../support/money';
import { EndNode, EndRoot, OpenChain, ReserveNode } from './ledger-model-chains';
import * as D from './ledger-model-disputes';
import { debtStats } from './ledger-model-debts';
import { propertyPath, propertySeed } from '../support/property-runs';
import {
  OPERATIONS,
  REPUTATIONS,
  HOLD_S,
  Model,
  Real,
  steps,
  snapshot,
  verify,
  baseline,
  Charge,
  AdvanceAndRelease,
  RequestWithdrawal,
  SettleWithdrawal,
  Replay,
} from './ledger-model-commands';

/**
 * Reliability goal G1: random sequences of money operations (charges, releases, withdrawals,
 * replays, and chains: funding, node reservations, charged and refunded nodes, the final refund;
 * ledger-model-chains.ts; and disputes: filing (frozen from escrow, or what available still holds),
 * answering, resolving by an admin (sometimes advancing explicitly) or the deadline, the withdrawn
 * part becoming the agent's debt to the payer and repaid from later earnings; ledger-model-disputes.ts)
 * against the real services and Postgres, with a small model as oracle. The payer plays both sides
 * with the agents that withdraw: it pays, the agent withdraws, it disputes (FileDispute `short`).
 * After every step: I1-I12 (and the disputes' I5d, I6d) hold and every balance equals the model's;
 * I12 is the new one: no agent's account pays out more than came in for it, but an admin's advance.
 * Replays of completed steps, and refused calls, must leave a byte-identical snapshot (I10).
 * The operation count is propertyRuns(1_000) (test/support/property-runs.ts: 1,000 in CI, fewer in a
 * quick local run, FC_RUNS=<n> for n). The seed is printed first; a failure prints its batch's seed:
 * FC_SEED=<either> reproduces it.
 */

describe('ledger model test (G1)', () => {
  let api: ApiHarness;
  const clock = new FixedClock(new Date('2026-11-22T12:00:00Z'));

  beforeAll(async () => {
    const holds = {
      ESCROW_HOLD_STANDARD_S: String(HOLD_S.standard),
      ESCROW_HOLD_AT_RISK_S: String(HOLD_S.atRisk),
      ESCROW_HOLD_CRITICAL_S: String(HOLD_S.critical),
    };
    api = await startApi({ ...holds, ...D.DISPUTE_ENV }, { clock });
  });
  afterAll(async () => {
    await api.close();
  });

  it(`keeps I1-I10 and the model after every step of >= ${OPERATIONS} random operations`, async () => {
    const real: Real = {
      app: api.app,
      ds: api.app.get(DataSource),
      ledger: api.app.get(LedgerService),
      releaseHold: api.app.get(ReleaseHold),
      processWithdrawal: api.app.get(ProcessWithdrawal),
      failWithdrawal: api.app.get(FailWithdrawal),
      requestWithdrawal: api.app.get(RequestWithdrawalUseCase),
      clock,
      get: (type) => api.app.get(type, { strict: false }),
    };
    const agentIdx = fc.integer({ min: 0, max: REPUTATIONS.length - 1 });
    const commands = [
      fc.tuple(agentIdx, fc.bigInt({ min: 0n, max: 3_000_000n })).map(([a, f]) => new Charge(a, f)),
      fc.tuple(agentIdx, fc.bigInt({ min: 0n, max: 5_000_000n })).map(([a, f]) => new Charge(a, f)),
      fc.integer({ min: 1, max: 400 }).map((s) => new AdvanceAndRelease(s)),
      fc
        .tuple(agentIdx, fc.option(fc.bigInt({ min: 500_000n, max: 4_000_000n }), { freq: 3 }))
        .map(([a, x]) => new RequestWithdrawal(a, x)),
      fc.tuple(fc.nat(), fc.boolean()).map(([p, ok]) => new SettleWithdrawal(p, ok)),
      fc.nat().map((p) => new Replay(p)),
      fc
        .tuple(fc.bigInt({ min: 10_000n, max: 200_000n }), fc.bigInt({ min: 1_000n, max: 30_000n }))
        .map(([b, c]) => new OpenChain(b, c, verify)),
      fc
        .tuple(fc.nat(), agentIdx, fc.bigInt({ min: 0n, max: 80_000n }))
        .map(([p, a, c]) => new ReserveNode(p, a, c, verify)),
      fc
        .tuple(fc.nat(), fc.integer({ min: 0, max: 100 }), fc.boolean())
        .map(([p, s, ok]) => new EndNode(p, s, ok, verify)),
      fc.nat().map((p) => new EndRoot(p, verify)),
      fc
        .tuple(fc.nat(), fc.constantFrom(...D.FILE_TARGETS))
        .map(([p, t]) => new D.FileDisputeCmd(p, t, verify, snapshot)),
      fc
        .tuple(fc.nat(), fc.integer({ min: 0, max: 9 }))
        .map(([p, i]) => new D.RespondCmd(p, i === 0, verify, snapshot)),
      fc
        .tuple(fc.nat(), fc.constantFrom(...D.OUTCOMES), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 3 }))
        .map(([p, o, i, a]) => new D.ResolveCmd(p, o, i === 0, verify, snapshot, a === 0)),
      fc.nat().map((p) => new D.ResolveOverdueCmd(p, verify, snapshot)),
    ];
    // One seed for the whole test, printed before it starts (a hang or a timeout prints nothing else);
    // batch n runs with seed + n, so the seed fast-check prints on a failure also replays it, as batch 0.
    const seed = propertySeed ?? Math.floor(Math.random() * 2 ** 31);
    process.stdout.write(
      `ledger model test: seed ${seed} (FC_SEED=${seed} replays this run), ${OPERATIONS} operations\n`,
    );
    // Batches of random runs until at least OPERATIONS operations have been checked.
    for (let batch = 0; steps < OPERATIONS; batch++) {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 120, size: 'max' }), async (cmds) => {
          const [rev, world, refundPayable, payerRefundPayable, payerRefundDue] = await Promise.all(
            [
              Accounts.platformRevenue(),
              Accounts.worldChain(),
              Accounts.clientRefundPayable(CLIENT_WALLET),
              Accounts.clientRefundPayable(D.PAYER.address),
              Accounts.clientRefundDue(D.PAYER.address),
            ].map((a) => real.ledger.balance(real.ds.manager, a.code)),
          );
          Object.assign(baseline, { revenue: rev, world, refundPayable, payerRefundPayable, payerRefundDue });
          const agents = REPUTATIONS.map(() => randomUUID());
          // The actor who plays both sides: PAYER owns agent 0 (registered with its wallet), so its charges
          // to agent 0 are self-payments, agent 0 withdraws them, and PAYER disputes them.
          await real.ds.query(
            `INSERT INTO agents (id, wallet, name, endpoints, chain_settings, status) VALUES ($1, $2, 'actor', '{}', '{}', 'active')`,
            [agents[0], D.PAYER.address],
          );
          const model: Model = {
            agents,
            reputation: new Map(agents.map((a, i) => [a, REPUTATIONS[i]])),
            available: new Map(),
            escrow: new Map(),
            withdrawing: new Map(),
            frozen: new Map(),
            owed: new Map(),
            revenue: 0n,
            world: 0n,
            refundPayable: 0n,
            payerRefundPayable: 0n,
            payerRefundDue: 0n,
            debts: [],
            chains: [],
            holds: [],
            withdrawals: [],
            charges: [],
            disputes: [],
            done: [],
            signatures: 0,
          };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        }),
        {
          numRuns: 10,
          seed: (seed + batch) | 0,
          endOnFailure: true,
          ...(batch === 0 && propertyPath ? { path: propertyPath } : {}),
        },
      );
    }
    process.stdout.write(
      `ledger model test: ${steps} operations, invariants I1-I12 checked after each; disputes: ${JSON.stringify({ ...D.disputeStats, ...debtStats })}\n`,
    );
    expect(steps).toBeGreaterThanOrEqual(OPERATIONS);
  }, 600_000);
});
