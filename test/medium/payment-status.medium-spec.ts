import { randomBytes, randomUUID } from 'node:crypto';
import type { PayerReadProof } from '@app/auth';
import { AppException } from '@app/common';
import { GetPaymentStatus, PAYMENT_STATUS_LIMIT } from '@app/execution';
import { Domain, startDomain } from '../support/medium';
import { newWallet, signAuth } from '../support/wallets';

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;

/**
 * Issue 33: the public payment status against real rows. A settlement hash, a nonce (shared by
 * several payers) and a payment identifier (used by several payers) each name their payments,
 * newest first and bounded; each reads its public status from its row and the execution it paid for.
 * Issue 52: a payment identifier is looked up, and a request id told, only to the payer proven (its signature).
 */
describe('GetPaymentStatus (medium)', () => {
  let domain: Domain;
  let status: GetPaymentStatus;
  let at = Date.parse('2026-01-01T00:00:00Z');
  const wallets = new Map<string, ReturnType<typeof newWallet>>();
  /** The payer's proof: its wallet's signature over itself (X-Client-Wallet + X-Client-Signature). */
  const signed = async (payer: string): Promise<PayerReadProof> => {
    const w = wallets.get(payer.toLowerCase())!;
    return { wallet: w.address, signature: await signAuth(w, w.address) };
  };

  beforeAll(async () => {
    domain = await startDomain();
    status = domain.get(GetPaymentStatus);
  });
  afterAll(async () => {
    await domain.close();
  });

  /** A payments row as the payment lib writes it (created one second after the previous one). */
  async function payment(o: {
    status: string;
    nonce?: string;
    txHash?: string | null;
    refId?: string | null;
    purpose?: 'execution' | 'registration';
  }): Promise<{ id: string; payer: string; nonce: string }> {
    const w = newWallet();
    wallets.set(w.address.toLowerCase(), w);
    const row = {
      id: `pay_${randomBytes(8).toString('hex')}`,
      payer: w.address.toLowerCase(),
      nonce: o.nonce ?? hex(32),
    };
    at += 1_000;
    await domain.ds.query(
      `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before, signature,
                             header_hash, purpose, status, tx_hash, ref_id, created_at, settled_at)
       VALUES ($1, 2, 'base-sepolia', 84532, $2, $3, $2, $4, 11000, 0, 9999999999, '0xsig', 'hh', $5, $6, $7, $8, $9, $10)`,
      [
        row.id,
        hex(20),
        row.payer,
        row.nonce,
        o.purpose ?? 'execution',
        o.status,
        o.txHash ?? null,
        o.refId ?? null,
        new Date(at),
        o.status === 'settled' ? new Date(at + 500) : null,
      ],
    );
    return row;
  }

  /** The execution a payment paid for, and optionally a payment identifier (an idempotency key) naming it. */
  async function execution(
    p: { id: string; payer: string },
    o: { status: string; settlement?: string | null; key?: string; keyExpiresIn?: string },
  ): Promise<string> {
    const id = `req_${randomBytes(8).toString('hex')}`;
    await domain.ds.query(
      `INSERT INTO executions (id, agent_id, capability_id, payer, input, status, settlement_status, agent_fee, authorized_agent_fee, platform_fee, payment_id, header_hash)
       VALUES ($1, $2, 'translate', $3, '{}', $4, $5, 10000, 10000, 1000, $6, 'hh')`,
      [id, randomUUID(), p.payer, o.status, o.settlement ?? null, p.id],
    );
    if (o.key)
      await domain.ds.query(
        `INSERT INTO idempotency_keys (payer, key, fingerprint, execution_id, expires_at) VALUES ($1, $2, 'f', $3, now() + $4::interval)`,
        [p.payer, o.key, id, o.keyExpiresIn ?? '1 hour'],
      );
    return id;
  }

  it("by nonce: the payer's own only (another payer's use of the same nonce is not answered); by hash (any case): the one it settled", async () => {
    const nonce = hex(32);
    const settledHash = hex(32);
    const a = await payment({ status: 'settled', nonce, txHash: settledHash, refId: 'req_will_be_set' });
    const aReq = await execution(a, { status: 'completed', settlement: 'settled' });
    await domain.ds.query(`UPDATE payments SET ref_id = $2 WHERE id = $1`, [a.id, aReq]);
    const pendingHash = hex(32);
    const b = await payment({ status: 'settling', nonce, txHash: pendingHash });
    const bReq = await execution(b, { status: 'completed', settlement: 'settlement_pending' });

    const ofB = await status.execute(nonce, b.payer, await signed(b.payer));
    expect(ofB.map((v) => [v.status, v.payer, v.txHash, v.requestId, v.settledAt !== null])).toEqual([
      ['settlement_pending', b.payer, pendingHash, bReq, false],
    ]);
    expect(ofB[0]).toMatchObject({ amount: 11_000n, network: 'base-sepolia', chainId: 84532, nonce });
    const ofA = await status.execute(nonce, a.payer.toUpperCase().replace('0X', '0x'), await signed(a.payer));
    expect(ofA.map((v) => [v.status, v.payer, v.txHash, v.requestId, v.settledAt !== null])).toEqual([
      ['settled', a.payer, settledHash, aReq, true],
    ]);
    // Without a payer a 0x reference is a transaction hash only: a nonce names nothing.
    await expect(status.execute(nonce)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // By a settlement hash alone (public): the same payments, without the request id (the payer's only).
    expect(await status.execute(settledHash.toUpperCase().replace('0X', '0x'))).toEqual(
      ofA.map((v) => ({ ...v, requestId: null })),
    );
    expect(await status.execute(pendingHash)).toEqual(ofB.map((v) => ({ ...v, requestId: null })));
    // Another payer's transaction is not answered to a payer who names itself.
    await expect(status.execute(pendingHash, a.payer, await signed(a.payer))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    // The nonce and the payer are public on chain: unsigned, or signed by another wallet, the same payment
    // without its request id.
    const publicA = ofA.map((v) => ({ ...v, requestId: null }));
    expect(await status.execute(nonce, a.payer)).toEqual(publicA);
    expect(await status.execute(nonce, a.payer, await signed(b.payer))).toEqual(publicA);
  });

  it("by payment identifier: the payer's key in force (a payer is required); an expired key names nothing", async () => {
    const key = `id_${randomBytes(12).toString('hex')}`;
    const first = await payment({ status: 'reserved' });
    const firstReq = await execution(first, { status: 'failed', key });
    const second = await payment({ status: 'settlement_failed', txHash: hex(32) });
    const secondReq = await execution(second, { status: 'completed', settlement: 'settlement_failed', key });
    const of = async (payer: string) => status.execute(key, payer, await signed(payer));
    expect((await of(second.payer)).map((v) => [v.status, v.requestId, v.txHash])).toEqual([
      ['failed', secondReq, null],
    ]);
    expect((await of(first.payer)).map((v) => [v.status, v.requestId, v.txHash])).toEqual([
      ['released', firstReq, null],
    ]);
    // The keys a payer used are its own: unsigned, or signed by another wallet, a key names nothing.
    await expect(status.execute(key, first.payer)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(status.execute(key, first.payer, await signed(second.payer))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const err = await status.execute(key).catch((e: unknown) => e);
    expect([(err as AppException).code, (err as AppException).details]).toEqual([
      'VALIDATION_ERROR',
      { errors: [expect.objectContaining({ field: 'payer' })] },
    ]);

    const stale = `id_${randomBytes(12).toString('hex')}`;
    await execution(await payment({ status: 'settled', txHash: hex(32), refId: 'x' }), {
      status: 'completed',
      key: stale,
      keyExpiresIn: '-1 second',
    });
    await expect(status.execute(stale, first.payer, await signed(first.payer))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('refunded: a registration fee that created no agent, an execution refunded after a dispute', async () => {
    const fee = await payment({ status: 'settled', purpose: 'registration', txHash: hex(32), refId: 'rfd_abc' });
    expect(await status.execute(fee.nonce, fee.payer, await signed(fee.payer))).toEqual([
      expect.objectContaining({ status: 'refunded', purpose: 'registration', requestId: null }),
    ]);
    const paid = await payment({ status: 'settled', txHash: hex(32) });
    const req = await execution(paid, { status: 'refunded', settlement: 'settled' });
    await domain.ds.query(`UPDATE payments SET ref_id = $2 WHERE id = $1`, [paid.id, req]);
    expect(await status.execute(paid.nonce, paid.payer, await signed(paid.payer))).toEqual([
      expect.objectContaining({ status: 'refunded', requestId: req, txHash: expect.any(String) }),
    ]);
  });

  it(`answers at most ${PAYMENT_STATUS_LIMIT} payments, the newest`, async () => {
    const nonce = hex(32);
    const made: string[] = [];
    const txHash = hex(32); // one batch transaction settling many payments
    for (let i = 0; i < PAYMENT_STATUS_LIMIT + 3; i++)
      made.push((await payment({ status: 'settled', nonce, txHash, refId: 'x' })).payer);
    const seen = await status.execute(txHash);
    expect(seen.map((v) => v.payer)).toEqual(made.reverse().slice(0, PAYMENT_STATUS_LIMIT));
  });

  it('refuses a malformed reference (VALIDATION_ERROR on ref) and answers NOT_FOUND when nothing matches', async () => {
    for (const ref of ['abc\u0000defghijklmnopq', 'x'.repeat(129), 'has space in it 0123', `0x${'a'.repeat(63)}!`]) {
      const err = await status.execute(ref).catch((e: unknown) => e);
      expect([ref, (err as AppException).code, (err as AppException).details]).toEqual([
        ref,
        'VALIDATION_ERROR',
        { errors: [expect.objectContaining({ field: 'ref' })] },
      ]);
    }
    await expect(status.execute(hex(32))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(status.execute('an_identifier_nobody_used', `0x${'12'.repeat(20)}`)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
