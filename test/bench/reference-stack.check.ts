/* Self-check of test/bench/reference-stack.ts (not a jest test):
     node -r @swc-node/register test/bench/reference-stack.check.ts
   anvil + TestUSDC, the example agent, the reference facilitator and server; 20 concurrent paid
   requests with pre-signed headers; every one answered 200, payTo credited 20 x price, and the gas
   of the facilitator's settlement transactions. ANVIL_BLOCK_TIME=1 mines on a 1 s timer instead of
   on every transaction (passed to startChain as `blockTime`, which scripts/local-chain.js reads). */
import { randomUUID } from 'node:crypto';
import { parseUnits } from 'ethers';
import { request } from 'undici';
import { startChain } from '../../scripts/local-chain';
import { startTranslatorAgent } from '../../examples/translator-agent';
import { referencePaymentHeaders, startReferenceFacilitator, startReferenceServer } from './reference-stack';

const REQUESTS = 20;
const PRICE = '0.011';

function assert(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(`check failed: ${message}`);
}

async function main(): Promise<void> {
  const blockTime = process.env.ANVIL_BLOCK_TIME ? Number(process.env.ANVIL_BLOCK_TIME) : undefined;
  const chainOpts = { quiet: true, blockTime };
  const chain = await startChain(chainOpts);
  const stops: (() => Promise<void>)[] = [() => chain.stop()];
  try {
    const facilitatorKey = chain.account(0);
    const payTo = chain.account(9).address;
    const payers = [chain.account(1), chain.account(2)];
    for (const p of payers) await chain.mint(p.address, 100_000_000n);

    const agent = await startTranslatorAgent({ keepCalls: false });
    stops.unshift(() => agent.stop());
    const facilitator = await startReferenceFacilitator({
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      privateKey: facilitatorKey.privateKey,
    });
    stops.unshift(() => facilitator.close());
    const server = await startReferenceServer({
      facilitatorUrl: facilitator.url,
      agentUrl: agent.url,
      payTo,
      asset: chain.usdcAddress,
      chainId: chain.chainId,
      price: PRICE,
    });
    stops.unshift(() => server.close());

    const headers = await referencePaymentHeaders({
      serverUrl: server.url,
      wallets: payers.map((p) => p.privateKey),
      count: REQUESTS,
    });
    assert(headers.length === REQUESTS, 'one header per request');
    const before = await chain.balanceOf(payTo);
    const startBlock = await chain.provider.getBlockNumber();

    const t0 = performance.now();
    const results = await Promise.all(
      headers.map(async ({ header, value }) => {
        const t = performance.now();
        const res = await request(`${server.url}/execute`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [header]: value },
          body: JSON.stringify({ requestId: randomUUID(), capabilityId: 'translate', input: { text: 'hello world' } }),
        });
        const body = await res.body.text();
        return {
          status: res.statusCode,
          body,
          paymentResponse: res.headers['payment-response'],
          ms: performance.now() - t,
        };
      }),
    );
    const wallMs = performance.now() - t0;
    for (const r of results) assert(r.status === 200, `status ${r.status}: ${r.body}`);
    for (const r of results)
      assert(typeof r.paymentResponse === 'string', 'a PAYMENT-RESPONSE header on every paid answer');
    assert(JSON.parse(results[0].body).output !== undefined || results[0].body.length > 0, 'the agent answered');

    const after = await chain.balanceOf(payTo);
    const expected = BigInt(REQUESTS) * parseUnits(PRICE, 6);
    assert(after - before === expected, `payTo rose by ${after - before}, expected ${expected}`);

    // The facilitator's transactions between the two points: one transferWithAuthorization per paid request.
    const endBlock = await chain.provider.getBlockNumber();
    const from = facilitatorKey.address.toLowerCase();
    let txs = 0;
    let gas = 0n;
    for (let n = startBlock + 1; n <= endBlock; n++) {
      const block = await chain.provider.getBlock(n, true);
      for (const tx of block?.prefetchedTransactions ?? []) {
        if (tx.from.toLowerCase() !== from) continue;
        const receipt = await chain.provider.getTransactionReceipt(tx.hash);
        assert(receipt?.status === 1, `settlement ${tx.hash} succeeded`);
        txs++;
        gas += receipt.gasUsed;
      }
    }
    assert(txs === REQUESTS, `${txs} facilitator transactions, expected ${REQUESTS}`);

    const ms = results.map((r) => r.ms).sort((a, b) => a - b);
    console.log(`block time: ${blockTime ? `${blockTime} s` : 'automine'}; blocks ${startBlock + 1}..${endBlock}`);
    console.log(
      `${REQUESTS} paid requests in ${wallMs.toFixed(0)} ms; latency min ${ms[0].toFixed(0)} / median ${ms[ms.length >> 1].toFixed(0)} / max ${ms[ms.length - 1].toFixed(0)} ms`,
    );
    console.log(`gas per settlement: ${gas / BigInt(txs)} (${txs} transactions, ${gas} gas)`);
    console.log('OK');
  } finally {
    for (const stop of stops) await stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
