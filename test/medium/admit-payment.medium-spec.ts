import { Wallet } from 'ethers';
import Redis from 'ioredis';
import { AppException } from '@app/common';
import { Queryable, TransactionRunner } from '@app/database';
import { RateLimiter } from '@app/execution';
import { AdmitPayment, PaymentAdmission } from '@app/payments';
import { REDIS } from '@app/queues';
import { PaymentInvalid, PaymentReplayed, PriceRequest } from '@app/x402';
import { Domain, startDomain } from '../support/medium';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/**
 * Payment admission (AdmitPayment) against real Postgres and Redis, no HTTP: each step in the order
 * the execute request takes them (recover, the used-check in the caller's batch, verify against the
 * price, the nonce claim in the rate limiter's round trip, check, admit, give back).
 */
describe('payments: AdmitPayment (medium)', () => {
  let domain: Domain;
  let price: PriceRequest;

  beforeAll(async () => {
    domain = await startDomain();
    price = { amount: 25_000n, resource: 'https://agora.test/api/v1/execute', description: 'medium admission' };
  });
  afterAll(async () => {
    await domain.close();
  });

  const header = async (wallet: Wallet, o: { amount?: bigint; nonce?: string } = {}) => {
    const h = await x402Header(wallet, {
      amount: o.amount ?? price.amount,
      payTo: domain.config.platformWallet!,
      ...o,
    });
    return { value: h.value, version: 1 as const, nonce: h.nonce };
  };
  const used = (sql: (q: Queryable) => Promise<boolean>) =>
    domain.get(TransactionRunner).batch((q) => [sql(q)] as const);

  /** The steps up to the check, as the execute request takes them; answers the admission and the used-check result. */
  async function admitUpTo(value: { value: string; version: 1 } | null, wallet: string, at = price) {
    const admission: PaymentAdmission = domain.get(AdmitPayment).execute(value);
    const [usedResult] = await used((q) => admission.usedCheck(q));
    admission.priceAt(at);
    const limits = await domain
      .get(RateLimiter)
      .hit(admission.payer ?? `ip:${wallet}`, 'agt_medium', admission.claimRequest());
    admission.claimed(limits.claimed === true);
    return { admission, usedResult, claimed: limits.claimed === true };
  }

  it('answers PAYMENT_REQUIRED with the offer for the price when no payment came', async () => {
    const { admission, usedResult } = await admitUpTo(null, '127.0.0.1');
    expect(admission.needsUsedCheck).toBe(false);
    expect(admission.payer).toBeNull();
    const err = captured(() => admission.check(price, usedResult));
    expect(err).toBeInstanceOf(AppException);
    expect((err as AppException).code).toBe('PAYMENT_REQUIRED');
    expect((err as AppException).details).toMatchObject({
      amount: '0.025000',
      currency: 'USDC',
      resource: price.resource,
    });
    expect((err as AppException).offer).toBeDefined();
  });

  it('answers PAYMENT_INVALID with the offer for a signature by another wallet than `from`, and takes no claim', async () => {
    const payer = newWallet();
    const forged = await x402Header(newWallet(), {
      amount: price.amount,
      payTo: domain.config.platformWallet!,
      from: payer.address,
    });
    const { admission, usedResult } = await admitUpTo({ value: forged.value, version: 1 }, '127.0.0.2');
    expect(admission.claimRequest()).toBeUndefined();
    const err = captured(() => admission.check(price, usedResult));
    expect(err).toBeInstanceOf(PaymentInvalid);
    expect((err as PaymentInvalid).offer).toBeDefined();
  });

  it('refuses a payment for less than the price (PAYMENT_INVALID), before any claim', async () => {
    const wallet = newWallet();
    const h = await header(wallet, { amount: price.amount - 1n });
    const { admission, usedResult, claimed } = await admitUpTo(h, '127.0.0.3');
    expect(admission.payer).toBeNull();
    expect([admission.claimRequest(), claimed]).toEqual([undefined, false]);
    expect(() => admission.check(price, usedResult)).toThrow(PaymentInvalid);
    // Its nonce was left unclaimed: the same header at the price it signed for is admitted.
    const atItsPrice = { ...price, amount: price.amount - 1n };
    const again = await admitUpTo(h, '127.0.0.3', atItsPrice);
    expect(again.claimed).toBe(true);
    expect(again.admission.check(atItsPrice, again.usedResult)).toBe(wallet.address);
  });

  it('admits a fresh payment once: the funding names the payer and the value; the same header again is a replay', async () => {
    const wallet = newWallet();
    const h = await header(wallet);
    const first = await admitUpTo(h, '127.0.0.4');
    expect(first.admission.check(price, first.usedResult)).toBe(wallet.address);
    const funding = await first.admission.admit(first.usedResult as PromiseFulfilledResult<boolean>);
    // The funding keeps the payer as rows store it: lower case.
    expect(funding.payer).toBe(wallet.address.toLowerCase());
    expect(funding.value).toBe(price.amount);
    expect(funding.id).toMatch(/^pay_/);

    // A concurrent replay of the same header finds the claim taken: refused before any paid work.
    const replay = await admitUpTo(h, '127.0.0.4');
    expect(replay.admission.check(price, replay.usedResult)).toBe(wallet.address);
    await expect(replay.admission.admit(replay.usedResult as PromiseFulfilledResult<boolean>)).rejects.toBeInstanceOf(
      PaymentReplayed,
    );
  });

  it('refuses an authorization already in payments even when Redis lost the claim', async () => {
    const wallet = newWallet();
    const h = await header(wallet);
    await domain.ds.query(
      `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                             signature, header_hash, purpose, ref_id, status, tx_hash, settled_at)
       VALUES ('pay_medium_used', 1, 'base-sepolia', 84532, '0x036cbd53842c5426634e7929541ec2318f3dcf7e', $1, $2, $3, $4, 0,
               9999999999, '0x', 'h', 'execution', 'pay_medium_used', 'settled', '0x', now())`,
      [wallet.address.toLowerCase(), domain.config.platformWallet!.toLowerCase(), h.nonce, price.amount.toString()],
    );
    const { admission, usedResult, claimed } = await admitUpTo(h, '127.0.0.5');
    // Redis has no claim of this nonce (as after losing it): this request takes one, and only Postgres knows.
    expect(claimed).toBe(true);
    expect(usedResult).toEqual({ status: 'fulfilled', value: true });
    await expect(admission.admit(usedResult as PromiseFulfilledResult<boolean>)).rejects.toBeInstanceOf(
      PaymentReplayed,
    );
  });

  it('gives the claim back when the request did no paid work, so the same header is admitted again', async () => {
    const wallet = newWallet();
    const h = await header(wallet);
    const first = await admitUpTo(h, '127.0.0.6');
    first.admission.giveBack(new AppException('INPUT_SCHEMA_MISMATCH', 'input does not match'));
    const redis = domain.app.get<Redis>(REDIS, { strict: false });
    await waitForKeyGone(redis, first.admission.claimRequest()!.key);
    const again = await admitUpTo(h, '127.0.0.6');
    await expect(again.admission.admit(again.usedResult as PromiseFulfilledResult<boolean>)).resolves.toMatchObject({
      payer: wallet.address.toLowerCase(),
    });
  });

  it('keeps the claim when the failure was the replay itself', async () => {
    const wallet = newWallet();
    const h = await header(wallet);
    const first = await admitUpTo(h, '127.0.0.7');
    first.admission.giveBack(new PaymentReplayed('used', {}));
    const again = await admitUpTo(h, '127.0.0.7');
    await expect(again.admission.admit(again.usedResult as PromiseFulfilledResult<boolean>)).rejects.toBeInstanceOf(
      PaymentReplayed,
    );
  });
});

function captured(f: () => unknown): unknown {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

/** The give-back is not awaited by its caller (fire and forget): wait until Redis shows it. */
async function waitForKeyGone(redis: Redis, key: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if ((await redis.exists(key)) === 0) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`claim ${key} was not given back`);
}
