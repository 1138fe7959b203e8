import type { Attempt } from './drill-load';
import { ChainFacts, DbFacts, reconcile } from './drill-reconcile';

/*
 * The drill's reconciliation (npm run drill) must find what it is there to find: each planted
 * discrepancy below is one the drill would otherwise report as "0 lost / 0 created".
 */
const HOT = '0x00000000000000000000000000000000000000a0';
const PAYER = '0x00000000000000000000000000000000000000b1';
const OWNER = '0x00000000000000000000000000000000000000c1';
const DEST = '0x00000000000000000000000000000000000000d1';
const AGENT = '11111111-1111-4111-8111-111111111111';
const nonce = (i: number) => `0x${i.toString(16).padStart(64, '0')}`;

/** A consistent world: a registration, six 0.201 charges, one per-token charge refunded 0.047, one 1.00 withdrawal. */
function facts(): { chain: ChainFacts; db: DbFacts; attempts: Attempt[] } {
  const payments = [
    { id: 'pay_reg', payer: OWNER, nonce: nonce(100), value: 100_000n, status: 'settled' },
    ...[1, 2, 3, 4, 5, 6].map((i) => ({
      id: `pay_${i}`,
      payer: PAYER,
      nonce: nonce(i),
      value: 201_000n,
      status: 'settled',
    })),
    { id: 'pay_chat', payer: PAYER, nonce: nonce(7), value: 51_000n, status: 'settled' },
  ];
  const chain: ChainFacts = {
    authorizations: payments.map((p) => ({
      authorizer: p.payer,
      nonce: p.nonce,
      to: HOT,
      value: p.value,
      txHash: `0xs${p.id}`,
    })),
    outgoing: [
      { to: DEST, value: 900_000n, txHash: '0xw1' },
      { to: PAYER, value: 47_000n, txHash: '0xr1' },
    ],
    hotBalance: 410_000n,
  };
  const db: DbFacts = {
    payments,
    withdrawals: [
      {
        id: 'wd_1',
        agentId: AGENT,
        destination: DEST,
        amount: 1_000_000n,
        fee: 100_000n,
        net: 900_000n,
        status: 'completed',
        txHash: '0xw1',
      },
    ],
    refunds: [
      {
        id: 'rfd_1',
        wallet: PAYER,
        amount: 47_000n,
        payoutAmount: null,
        status: 'completed',
        carriedBy: null,
        txHash: '0xr1',
      },
    ],
    accounts: [
      { kind: 'world', ownerId: null, balance: -410_000n },
      { kind: 'revenue', ownerId: null, balance: 267_150n },
      { kind: 'available', ownerId: AGENT, balance: 142_850n },
      { kind: 'escrow', ownerId: AGENT, balance: 0n },
      { kind: 'withdrawing', ownerId: AGENT, balance: 0n },
      { kind: 'refund_payable', ownerId: PAYER.toLowerCase(), balance: 0n },
    ],
    charges: [{ agentId: AGENT, earnings: 1_140_000n + 2_850n, platformTake: 66_000n + 1_150n }],
    registrationFees: 100_000n,
  };
  const attempts: Attempt[] = [1, 2, 3, 4, 5, 6, 7].map((i) => ({
    phase: 'baseline',
    kind: i === 7 ? 'refund' : 'sync',
    status: 200,
    code: '',
    payer: PAYER,
    nonce: nonce(i),
    ms: 10,
  }));
  return { chain, db, attempts };
}

describe('drill reconciliation (medium)', () => {
  it('finds nothing in a consistent world, and counts what it matched', () => {
    const { chain, db, attempts } = facts();
    const r = reconcile(chain, db, attempts);
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ lost: 0n, created: 0n, doublePayments: 0, paidRefused: 0, inFlight: 0 });
    expect(r.matched).toEqual({ payments: 8, withdrawals: 1, refunds: 1 });
  });

  it('an authorization used on chain with no payment row is money lost', () => {
    const { chain, db, attempts } = facts();
    db.payments = db.payments.filter((p) => p.id !== 'pay_3');
    const r = reconcile(chain, db, attempts);
    expect(r.lost).toBeGreaterThanOrEqual(201_000n);
    expect(r.problems.join('\n')).toMatch(/used on chain .* with no payment row/);
  });

  it('a settled payment unused on chain is money created', () => {
    const { chain, db, attempts } = facts();
    chain.authorizations = chain.authorizations.filter((a) => a.nonce !== nonce(2));
    chain.hotBalance -= 201_000n;
    const r = reconcile(chain, db, attempts);
    expect(r.created).toBe(201_000n);
    expect(r.problems).toEqual([expect.stringMatching(/pay_2 settled but unused on chain/)]);
  });

  it('a withdrawal paid twice on chain is money lost; a completed refund never sent is money created', () => {
    const { chain, db, attempts } = facts();
    chain.outgoing.push({ to: DEST, value: 900_000n, txHash: '0xw1-again' });
    chain.outgoing = chain.outgoing.filter((t) => t.txHash !== '0xr1');
    chain.hotBalance += 47_000n - 900_000n;
    const r = reconcile(chain, db, attempts);
    expect(r.problems.join('\n')).toMatch(/transfer 0xw1-again of 900000 .* matches no withdrawal or refund/);
    expect(r.problems.join('\n')).toMatch(/rfd_1 completed with no transfer on chain/);
    expect(r.lost).toBe(900_000n);
    expect(r.created).toBe(47_000n);
  });

  it("an agent's ledger balance that its rows do not explain is found", () => {
    const { chain, db, attempts } = facts();
    db.accounts.find((a) => a.kind === 'available')!.balance += 1n;
    const r = reconcile(chain, db, attempts);
    expect(r.created).toBe(1n);
    expect(r.problems).toEqual([expect.stringMatching(new RegExp(`agent ${AGENT}: ledger 142851`))]);
  });

  it('an idempotency key whose retries moved two payments is a double payment', () => {
    const { chain, db, attempts } = facts();
    for (const a of attempts.slice(0, 2)) Object.assign(a, { kind: 'sync-key', key: 'k1', phase: 'api kill' });
    const r = reconcile(chain, db, attempts);
    expect(r.doublePayments).toBe(1);
    expect(r.byPhase.get('api kill')).toMatchObject({ doublePayments: 1 });
  });

  it('a keyless request answered 503 after its payment moved is counted; one whose payment did not move is not', () => {
    const { chain, db, attempts } = facts();
    Object.assign(attempts[0], { status: 503, code: 'SERVICE_UNAVAILABLE' });
    attempts.push({ ...attempts[1], status: 503, code: 'SERVICE_UNAVAILABLE', nonce: nonce(999) });
    const r = reconcile(chain, db, attempts);
    expect(r.paidRefused).toBe(1);
    expect(r.problems).toEqual([expect.stringMatching(/answered 503 SERVICE_UNAVAILABLE after its payment/)]);
  });

  it('a payment still settling whose authorization is mined is in flight, not lost', () => {
    const { chain, db, attempts } = facts();
    db.payments.push({ id: 'pay_9', payer: PAYER, nonce: nonce(9), value: 201_000n, status: 'settling' });
    chain.authorizations.push({ authorizer: PAYER, nonce: nonce(9), to: HOT, value: 201_000n, txHash: '0xs9' });
    chain.hotBalance += 201_000n;
    const r = reconcile(chain, db, attempts);
    expect(r.problems).toEqual([]);
    expect(r).toMatchObject({ inFlight: 1, lost: 0n, created: 0n });
  });
});
