import { Transaction } from 'ethers';
import { SettlementAdapter } from '@app/onchain';
import { NonceConflicts, startNonceConflicts } from '../support/nonce-conflicts';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

/** How soon after the outside transaction is mined the payment must be: a block or two, never the 30 s receipt wait. */
const RECOVERY_MS = 2_000;
const PRICE = 11_000n;

type Rewrite = ((body: string) => string) | null;
const saying =
  (words: string): Rewrite =>
  (body) =>
    body.replaceAll('replacement transaction underpriced', words).replaceAll('transaction already imported', words);

/**
 * Issue 53, item 3: a transaction sent from the hot wallet's key outside agora holds the nonce the
 * sender takes next. The node refuses agora's transaction in its own words ("nonce too low" when the
 * other is mined; "replacement transaction underpriced", or "replacement fee too low", while it is
 * pending: `RpcGate` gives anvil's refusal in another node's words). Before, only "nonce too low" on
 * a settlement was decided at once: a transfer, or any refusal while the other was pending, waited
 * for the whole receipt wait (30 s). Now the sender follows the nonce at the block rate; once the
 * transaction that used it is seen on chain, its own can never land, and its call is signed again at
 * a free nonce: paid once, within RECOVERY_MS. "Already known" (anvil: "transaction already
 * imported") is our own transaction in the pool: waited for, never signed again.
 */
describe('faults: a nonce of the hot wallet used outside agora (e2e)', () => {
  let s: NonceConflicts;

  beforeAll(async () => {
    s = await startNonceConflicts();
  }, 60_000);
  afterAll(() => s?.stop());
  afterEach(async () => {
    s.gate.rewrite = null;
    await s.automine(true);
  });

  const sends = () => s.gate.methods.filter((m) => m === 'eth_sendRawTransaction').length;

  /** Once agora's transaction at `nonce` was signed and offered to the node, the outside one is mined. */
  async function mineOutsideAfterRefusal(nonce: number, kind: 'transfer' | 'settlement', sentBefore: number) {
    await s.within(15_000, `the ${kind} signed at ${nonce}`, async () => {
      const rows = await s.ds.query(`SELECT 1 FROM chain_txs WHERE nonce = $1 AND kind = $2`, [nonce, kind]);
      return rows.length > 0 && sends() > sentBefore;
    });
    await s.automine(true);
    await s.mine();
  }

  /** The withdrawal paid once: its net amount at its destination, one mined transfer, nothing left to land. */
  async function paidOnce(w: { id: string; dest: string }) {
    const [row] = await s.ds.query(`SELECT status, net_amount::text AS net FROM withdrawals WHERE id = $1`, [w.id]);
    expect(row.status).toBe('completed');
    await s.mine();
    expect(await s.chain.balanceOf(w.dest)).toBe(BigInt(row.net));
    const txs = await s.chainTxsOf(w.dest);
    expect(txs.filter((t) => t.status === 'mined')).toHaveLength(1);
    expect(txs.filter((t) => t.status === 'signed')).toEqual([]);
    return txs;
  }

  it.each<[string, Rewrite]>([
    ['replacement transaction underpriced', null],
    ['replacement fee too low', saying('replacement fee too low')],
  ])(
    'a transfer refused "%s" (an outside transaction pending at its nonce) is paid once, soon after that one is mined',
    async (_words, rewrite) => {
      s.gate.rewrite = rewrite;
      const w = await s.withdrawal();
      const nonce = await s.nextNonce();
      await s.automine(false);
      await s.outside(nonce);
      const before = sends();
      const paying = s.process(w.id);
      await mineOutsideAfterRefusal(nonce, 'transfer', before);
      const started = Date.now();
      expect(await paying).toBe('completed');
      expect(Date.now() - started).toBeLessThan(RECOVERY_MS);
      const txs = await paidOnce(w);
      expect(txs[0]).toEqual({ nonce, status: 'dropped' });
      expect(txs[1].nonce).toBeGreaterThan(nonce);
    },
  );

  it('a transfer refused "nonce too low" (an outside transaction mined at its nonce) is paid once within RECOVERY_MS', async () => {
    const w = await s.withdrawal();
    const nonce = await s.nextNonce();
    await s.outside(nonce); // automined
    const started = Date.now();
    expect(await s.process(w.id)).toBe('completed');
    expect(Date.now() - started).toBeLessThan(RECOVERY_MS);
    const txs = await paidOnce(w);
    expect(txs.map((t) => t.status)).toEqual(['dropped', 'mined']);
  });

  it('a settlement refused "replacement transaction underpriced" is sent again and settles once, soon after the outside one is mined', async () => {
    const payer = newWallet();
    await s.chain.mint(payer.address, PRICE);
    const pay = await x402Header(payer, { amount: PRICE, payTo: s.chain.platform.address, asset: s.chain.usdcAddress });
    const nonce = await s.nextNonce();
    await s.automine(false);
    await s.outside(nonce);
    const before = sends();
    const answer = s.api.request('POST', `/api/v1/agents/${s.agentId}/capabilities/translate/execute`, {
      body: { text: 'hello' },
      headers: { [pay.name]: pay.value },
    });
    await mineOutsideAfterRefusal(nonce, 'settlement', before);
    const started = Date.now();
    const res = await answer;
    expect(Date.now() - started).toBeLessThan(RECOVERY_MS);
    expect([res.status, res.body.data?.settlement?.status]).toEqual([200, 'settled']);
    await s.mine();
    expect(await s.chain.balanceOf(payer.address)).toBe(0n);
    const rows = await s.ds.query(`SELECT status FROM chain_txs WHERE kind = 'settlement' AND nonce >= $1`, [nonce]);
    expect(rows.map((r: { status: string }) => r.status).sort()).toEqual(['dropped', 'mined']);
  });

  it.each<[string, Rewrite]>([
    ['transaction already imported', null],
    ['already known', saying('already known')],
    ['AlreadyKnown', saying('AlreadyKnown')],
  ])(
    'our own transfer already in the pool, answered "%s" when sent again, is waited for and never signed again',
    async (_words, rewrite) => {
      s.gate.rewrite = rewrite;
      const w = await s.withdrawal();
      const nonce = await s.nextNonce();
      await s.automine(false);
      const paying = s.process(w.id);
      await s.within(
        5_000,
        'the transfer signed',
        async () => (await s.chainTxsOf(w.dest)).length === 1 && sends() > 0,
      );
      const [tx] = await s.ds.query(`SELECT id FROM chain_txs WHERE nonce = $1 AND kind = 'transfer'`, [nonce]);
      // The sweeper's resend of it (what a restarted process does too): the node already has it.
      const before = sends();
      const resend = s.api.app.get(SettlementAdapter).chainSender()!.resolve(tx.id);
      await s.within(5_000, 'the transfer offered again', async () => sends() > before);
      await s.automine(true);
      await s.mine();
      const started = Date.now();
      expect(await paying).toBe('completed');
      expect((await resend).state).toBe('mined');
      expect(Date.now() - started).toBeLessThan(RECOVERY_MS);
      expect(await paidOnce(w)).toEqual([{ nonce, status: 'mined' }]);
      expect(await s.chain.provider.getTransactionCount(s.chain.platform.address, 'latest')).toBe(nonce + 1);
    },
  );

  it.each<[string, boolean]>([
    ['our resend refused "replacement transaction underpriced", then it is mined', true],
    ['it is mined, then ours is decided (the count says used, our transaction unknown)', false],
  ])(
    'a wallet "speed up" of our pending transfer (same call, higher fee) is its payment, paid once: %s',
    async (_when, resendFirst) => {
      const w = await s.withdrawal();
      const nonce = await s.nextNonce();
      const hotBefore = await s.chain.balanceOf(s.chain.platform.address);
      await s.automine(false);
      const paying = s.process(w.id);
      await s.within(
        5_000,
        'the transfer signed',
        async () => (await s.chainTxsOf(w.dest)).length === 1 && sends() > 0,
      );
      const [ours] = await s.ds.query(`SELECT id, signed_tx FROM chain_txs WHERE nonce = $1 AND kind = 'transfer'`, [
        nonce,
      ]);
      // The operator's wallet replaces it in the pool: same nonce, to and calldata, a higher fee, the hot wallet's key.
      const call = Transaction.from(ours.signed_tx as string);
      const raw = await s.chain.platform.signTransaction({
        type: 2,
        chainId: s.chain.chainId,
        nonce,
        to: call.to,
        data: call.data,
        gasLimit: call.gasLimit,
        maxFeePerGas: 200_000_000_000n,
        maxPriorityFeePerGas: 100_000_000_000n,
      });
      const speedUp = ((await s.chain.provider.send('eth_sendRawTransaction', [raw])) as string).toLowerCase();
      // The sweeper's resend of ours: "replacement transaction underpriced" while the speed-up is pending; or it is mined first.
      const before = sends();
      const sender = s.api.app.get(SettlementAdapter).chainSender()!;
      const resend = resendFirst ? sender.resolve(ours.id) : null;
      if (resendFirst) await s.within(5_000, 'the transfer offered again', async () => sends() > before);
      await s.automine(true);
      await s.mine();
      const decided = await (resend ?? sender.resolve(ours.id));
      expect([decided.state, decided.tx.txHash]).toEqual(['mined', speedUp]);
      expect(await paying).toBe('completed');
      expect(await paidOnce(w)).toEqual([{ nonce, status: 'mined' }]);
      const [row] = await s.ds.query(`SELECT tx_hash, net_amount::text AS net FROM withdrawals WHERE id = $1`, [w.id]);
      expect(row.tx_hash).toBe(speedUp);
      expect(hotBefore - (await s.chain.balanceOf(s.chain.platform.address))).toBe(BigInt(row.net));
      // Decided again later (a restart, the sweeper): still its payment, never signed again.
      expect((await s.api.app.get(SettlementAdapter).chainSender()!.resolve(ours.id)).state).toBe('mined');
      await s.mine();
      expect(await s.chain.balanceOf(w.dest)).toBe(BigInt(row.net));
    },
    45_000,
  );
});
