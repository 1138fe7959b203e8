import { id as eventTopic, Signature, Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { LEDGER_CHECKS, runInvariantChecks } from '@app/ledger';
import { SettlementAdapter, SettleRequest } from '@app/onchain';
import { PAYMENT_CHECKS, AuthorizePayment, SettlePayment } from '@app/payments';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from '../support/api-harness';
import { evmEnv } from '../support/evm-env';
import { TestAgentServer } from '../support/agent-server';
import { capabilityPayload, registerAgent, REGISTRATION_FEE_MICROS } from '../support/factories';
import { newWallet } from '../support/wallets';
import { x402Header } from '../support/x402';

const PRICE = 11_000n; // 0.001 platform fee + 0.010 agent fee
const AUTHORIZATION_USED = eventTopic('AuthorizationUsed(address,bytes32)');

/**
 * The one on-chain sender (issue 12) on anvil with the project's token and SettlementBatcher:
 * concurrent sync executes settle in batches, each payment by exactly one transfer of its
 * authorization, and a bad authorization inside a batch fails alone.
 */
describe('the chain sender: concurrent settlements in batches (e2e)', () => {
  let chain: LocalChain;
  let agentServer: TestAgentServer;
  let api: ApiHarness;
  let ds: DataSource;
  let agentId: string;

  beforeAll(async () => {
    chain = await startChain();
    agentServer = await new TestAgentServer().start();
    api = await startApi({
      ...evmEnv(chain),
      OUTBOUND_ALLOW_HTTP: 'true',
      OUTBOUND_ALLOW_PRIVATE: 'true',
      RATE_LIMIT_CLIENT_PER_MIN: '100000',
      RATE_LIMIT_AGENT_PER_MIN: '100000',
      DATABASE_POOL_SIZE: '20',
    });
    ds = api.app.get(DataSource);
    const owner = newWallet();
    await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
    const res = await registerAgent(
      api,
      owner,
      { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] },
      { asset: chain.usdcAddress },
    );
    expect(res.status).toBe(201);
    agentId = res.body.data.id;
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await agentServer?.stop();
    await chain?.stop();
  });

  /** AuthorizationUsed logs of every transaction the relayer sent, by `payer:nonce`, with the hash that carried each. */
  async function usedOnChain(): Promise<Map<string, string[]>> {
    const used = new Map<string, string[]>();
    const head = await chain.provider.getBlockNumber();
    for (let b = 1; b <= head; b++) {
      const receipts = (await chain.provider.send('eth_getBlockReceipts', [`0x${b.toString(16)}`])) as {
        from: string;
        transactionHash: string;
        logs: { topics: string[] }[];
      }[];
      for (const r of receipts.filter((x) => x.from.toLowerCase() === chain.platform.address.toLowerCase())) {
        for (const l of r.logs.filter((x) => x.topics[0] === AUTHORIZATION_USED)) {
          const key = `0x${l.topics[1].slice(26)}:${l.topics[2]}`;
          used.set(key, [...(used.get(key) ?? []), r.transactionHash]);
        }
      }
    }
    return used;
  }

  it('200 concurrent sync executes all settle, each authorization by exactly one transfer, several per transaction', async () => {
    const payers = Array.from({ length: 20 }, () => newWallet());
    for (const p of payers) await chain.mint(p.address, 10n * PRICE);
    const headers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        x402Header(payers[i % 20], { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress }),
      ),
    );
    const results = await Promise.all(
      headers.map((h) =>
        api.request('POST', '/api/v1/execute', {
          body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } },
          headers: { [h.name]: h.value },
        }),
      ),
    );
    expect(results.map((r) => `${r.status} ${r.body?.data?.settlement?.status ?? JSON.stringify(r.body)}`)).toEqual(
      Array(200).fill('200 settled'),
    );
    for (const p of payers) expect(await chain.balanceOf(p.address)).toBe(0n); // each paid its ten prices, once each

    const used = await usedOnChain();
    const rows: { payer: string; nonce: string; tx_hash: string }[] = await ds.query(
      `SELECT payer, nonce, tx_hash FROM payments WHERE nonce = ANY($1)`,
      [headers.map((h) => h.nonce.toLowerCase())],
    );
    expect(rows).toHaveLength(200);
    for (const r of rows) expect(used.get(`${r.payer.toLowerCase()}:${r.nonce.toLowerCase()}`)).toEqual([r.tx_hash]); // recorded hash = the one transfer that moved it
    const [batches] = await ds.query(
      `SELECT count(*)::int AS txs, max(items)::int AS largest, sum(items)::int AS items FROM chain_txs WHERE kind = 'settlement' AND status = 'mined'`,
    );
    expect(batches.items).toBeGreaterThanOrEqual(200);
    expect(batches.largest).toBeGreaterThan(1);
    expect(batches.txs).toBeLessThan(batches.items);
    expect(
      (await runInvariantChecks(ds.manager, [...LEDGER_CHECKS, ...PAYMENT_CHECKS])).results.filter(
        (r) => r.violations.length,
      ),
    ).toEqual([]);
  }, 120_000);

  it('a batch with one bad authorization inside settles the others and fails that one alone', async () => {
    const adapter = api.app.get(SettlementAdapter);
    const request = async (payer: Wallet, funded: boolean): Promise<SettleRequest> => {
      if (funded) await chain.mint(payer.address, PRICE);
      const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
      const payload = JSON.parse(Buffer.from(h.value, 'base64').toString()).payload;
      const a = payload.authorization;
      return {
        x402Version: 1,
        network: 'base-sepolia',
        chainId: 84532,
        asset: chain.usdcAddress,
        payer: a.from,
        payTo: a.to,
        value: BigInt(a.value),
        validAfter: BigInt(a.validAfter),
        validBefore: BigInt(a.validBefore),
        nonce: a.nonce,
        signature: payload.signature,
      };
    };
    const payers = Array.from({ length: 5 }, () => newWallet());
    // Asked for in the same turn of the event loop, the five go out as one batch, the fourth of them unfunded.
    const reqs: SettleRequest[] = [];
    for (const [i, p] of payers.entries()) reqs.push(await request(p, i !== 3)); // one mint at a time (one minter)
    const outcomes = await Promise.allSettled(reqs.map((r) => adapter.settle(r)));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((outcomes[3] as PromiseRejectedResult).reason)).toMatch(/refused on chain/);
    const hashes = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.txHash : null));
    expect(new Set([hashes[0], hashes[1], hashes[2], hashes[4]]).size).toBe(1); // one batch transaction carried the four
    const [batch] = await ds.query(`SELECT items, status FROM chain_txs WHERE tx_hash = $1`, [hashes[1]]);
    expect(batch).toEqual({ items: 5, status: 'mined' });
    for (const i of [0, 1, 2, 4]) expect(await chain.balanceOf(payers[i].address)).toBe(0n);
    expect(await adapter.authorizationUsed(reqs[3])).toBe(false);
  });

  it('a settlement whose authorization someone else relayed first records the transaction that actually moved the money', async () => {
    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    const price = {
      amount: PRICE,
      resource: `${api.config.publicBaseUrl}/api/v1/execute`,
      description: 'test execution',
    };
    const reserved = await api.app
      .get(AuthorizePayment)
      .execute({ value: h.value, version: 1 }, price, { purpose: 'execution' });
    // After our checks and before our settlement, another account relays the same authorization.
    const payload = JSON.parse(Buffer.from(h.value, 'base64').toString()).payload;
    const a = payload.authorization;
    const sig = Signature.from(payload.signature);
    const relayer = chain.account(5).connect(chain.provider);
    const theirs = await (chain.token.connect(relayer) as typeof chain.token).getFunction('transferWithAuthorization')(
      a.from,
      a.to,
      a.value,
      a.validAfter,
      a.validBefore,
      a.nonce,
      sig.v,
      sig.r,
      sig.s,
    );
    await theirs.wait();
    const settled = await api.app.get(SettlePayment).execute(reserved.id);
    expect(settled).toMatchObject({ status: 'settled', txHash: theirs.hash });
    expect(await chain.balanceOf(payer.address)).toBe(0n); // moved once
    const [row] = await ds.query(`SELECT status, tx_hash FROM payments WHERE id = $1`, [reserved.id]);
    expect(row).toEqual({ status: 'settled', tx_hash: theirs.hash });
  });

  it('a nonce used by a transaction sent from the hot wallet outside agora: the settlement goes out again with a free one', async () => {
    const wallet = chain.platform.address.toLowerCase();
    const [{ next_nonce: next }] = await ds.query(`SELECT next_nonce FROM chain_nonces WHERE wallet = $1`, [wallet]);
    // Someone with the hot wallet's key spends the nonce agora will sign its next transaction with.
    const outside = await chain.platform.connect(chain.provider).sendTransaction({
      to: chain.platform.address,
      value: 0n,
      nonce: Number(next),
    });
    await outside.wait();

    const payer = newWallet();
    await chain.mint(payer.address, PRICE);
    const h = await x402Header(payer, { amount: PRICE, payTo: chain.platform.address, asset: chain.usdcAddress });
    const res = await api.request('POST', '/api/v1/execute', {
      body: { targetAgentId: agentId, capabilityId: 'translate', input: { text: 'hi' } },
      headers: { [h.name]: h.value },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.settlement).toMatchObject({ status: 'settled' });
    expect(await chain.balanceOf(payer.address)).toBe(0n);

    // The transaction signed with the taken nonce is dropped; the same authorization went out once more and moved the money.
    const txs: { nonce: string; status: string; tx_hash: string }[] = await ds.query(
      `SELECT nonce::text, status, tx_hash FROM chain_txs WHERE wallet = $1 AND nonce >= $2 ORDER BY nonce`,
      [wallet, next],
    );
    expect(txs.map((t) => `${t.nonce} ${t.status}`)).toEqual([`${next} dropped`, `${BigInt(next) + 1n} mined`]);
    const [payment] = await ds.query(`SELECT status, tx_hash FROM payments WHERE nonce = $1`, [h.nonce.toLowerCase()]);
    expect(payment).toEqual({ status: 'settled', tx_hash: txs[1].tx_hash });
    expect(await chain.provider.getTransactionCount(chain.platform.address, 'latest')).toBe(Number(next) + 2);
  });
});
