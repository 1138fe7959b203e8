import { Wallet } from 'ethers';
import { FixedClock } from '@app/common';
import { HOLD_MS, PayerHolds } from '@app/onchain';
import { REDIS, RedisClient } from '@app/queues';
import type { LocalChain } from '../../scripts/local-chain';
import type { ApiHarness } from '../support/api-harness';
import { EvmStack, startEvmStack } from '../support/evm-stack';
import { waitFor } from '../support/processes';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n;
const PARALLEL = 4;

/**
 * Issue 52: the evm preflight read a payer's balance once per call, so N parallel calls each worth the
 * whole balance all ran (N agent calls) and one settled. The preflight now holds what a payer's calls in
 * flight spend: a call runs only if the balance covers it beside them.
 */
describe('evm: the preflight holds what a payer’s calls in flight spend (e2e, anvil)', () => {
  let stack: EvmStack;
  let chain: LocalChain;
  let api: ApiHarness;
  let path: string;

  beforeAll(async () => {
    stack = await startEvmStack({});
    ({ chain, api } = stack);
    path = `/api/v1/agents/${stack.agentId}/capabilities/translate/execute`;
  }, 60_000);
  afterAll(() => stack?.stop());

  const pay = (payer: Wallet) =>
    x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
  const execute = async (payer: Wallet, text: string) => {
    const h = await pay(payer);
    return api.request('POST', path, { body: { text, mode: 'slow' }, headers: { [h.name]: h.value } });
  };
  const agentCalls = (text: string) => stack.agentServer.calls.filter((c) => JSON.stringify(c).includes(text)).length;

  it(`${PARALLEL} parallel calls each worth the whole balance: one runs and settles, the others are refused before the agent`, async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const text = `parallel-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => execute(payer, text)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, ...new Array(PARALLEL - 1).fill(402)]);
    for (const r of answers.filter((a) => a.status === 402))
      expect(r.body.error).toMatchObject({ code: 'PAYMENT_INVALID', details: { reason: 'insufficient_funds' } });
    expect(agentCalls(text)).toBe(1);
    expect(await chain.balanceOf(payer.address)).toBe(0n);
  });

  it('a settled call releases its hold: the next call on fresh funds runs at once', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    expect((await execute(payer, `first-${Date.now()}`)).status).toBe(200);
    await chain.mint(payer.address, PRICE);
    const second = await execute(payer, `second-${Date.now()}`);
    expect(second.status).toBe(200);
  });

  it('a failed run (nothing charged) releases its hold: the same balance pays the next call', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const h = await pay(payer);
    const failed = await api.request('POST', path, {
      body: { text: 'fail', mode: 'fail' },
      headers: { [h.name]: h.value },
    });
    expect(failed.body.error?.code).toBe('EXECUTION_FAILED');
    expect(await chain.balanceOf(payer.address)).toBe(PRICE);
    expect((await execute(payer, `after-failure-${Date.now()}`)).status).toBe(200);
  });

  it('a hold left by a crash expires: after HOLD_MS the balance is the payer’s again', async () => {
    const redis = api.app.get<RedisClient>(REDIS);
    const clock = new FixedClock(new Date());
    const holds = new PayerHolds(redis, `${api.config.queuePrefix}:t`, clock);
    const payer = newWallet().address;
    const call = (nonce: string) => ({
      chainId: 84532,
      asset: chain.usdcAddress,
      payer,
      nonce,
      value: PRICE,
      validBefore: BigInt(Math.floor(clock.nowMs() / 1000) + 3_600),
    });
    expect(await holds.hold(call('0x01'), PRICE)).toBe(true);
    // The same authorization is held once, not twice; another is refused beside it.
    expect(await holds.hold(call('0x01'), PRICE)).toBe(true);
    expect(await holds.hold(call('0x02'), PRICE)).toBe(false);
    expect(await holds.hold(call('0x02'), 2n * PRICE)).toBe(true);
    // The process died holding both: nothing releases them; they run out.
    clock.advance(HOLD_MS + 1);
    expect(await holds.hold(call('0x03'), PRICE)).toBe(true);
    holds.release(call('0x03'));
    await waitFor(async () => holds.hold(call('0x04'), PRICE), 'the released hold to be gone');
  });
});
