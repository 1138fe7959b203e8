import { DataSource } from 'typeorm';
import { ProcessWithdrawal } from '@app/payments';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from './api-harness';
import { evmEnv } from './evm-env';
import { TestAgentServer } from './agent-server';
import { capabilityPayload, registerAgent, REGISTRATION_FEE_MICROS } from './factories';
import { seedCharge } from './money';
import { RpcGate } from './rpc-gate';
import { newWallet, walletHeaders } from './wallets';

/** What an outside transaction pays: far above what the hot wallet's sender offers, so its own is "underpriced". */
const OUTSIDE_FEES = { maxFeePerGas: 200_000_000_000n, maxPriorityFeePerGas: 100_000_000_000n };

/**
 * anvil behind an RpcGate (another node's words for an error), the api in process with the default
 * receipt wait (EVM_RECEIPT_TIMEOUT_MS 30 s), a registered agent with earnings, and the hot wallet's
 * key used outside agora, as an operator's stray transaction would use it.
 */
export async function startNonceConflicts() {
  const chain: LocalChain = await startChain();
  const gate = await new RpcGate(chain.rpcUrl).start();
  const agentServer = await new TestAgentServer().start();
  const api: ApiHarness = await startApi({
    ...evmEnv(chain),
    EVM_RPC_URL: gate.url,
    OUTBOUND_ALLOW_HTTP: 'true',
    OUTBOUND_ALLOW_PRIVATE: 'true',
  });
  const ds = api.app.get(DataSource);
  const owner = newWallet();
  await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
  const reg = await registerAgent(
    api,
    owner,
    { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] },
    { asset: chain.usdcAddress },
  );
  if (reg.status !== 201) throw new Error(`registration failed: ${JSON.stringify(reg.body)}`);
  const agentId: string = reg.body.data.id;
  await seedCharge(api.app, { agentId, agentFee: 50_000_000n, reputation: 90 });
  // What the seeded charges pay out is in the hot wallet (their payments did not move USDC on this chain).
  await chain.mint(chain.platform.address, 50_000_000n);
  const hot = chain.platform.connect(chain.provider);
  const wallet = chain.platform.address.toLowerCase();

  const stack = {
    chain,
    gate,
    api,
    ds,
    agentId,
    /** The nonce the hot wallet's sender takes next (its Postgres sequence). */
    async nextNonce(): Promise<number> {
      const [row] = await ds.query(`SELECT next_nonce::int AS n FROM chain_nonces WHERE wallet = $1`, [wallet]);
      return row.n;
    },
    /** A transaction from the hot wallet's key sent outside agora at `nonce` (to itself, nothing moved). */
    async outside(nonce: number): Promise<string> {
      const raw = await hot.signTransaction({
        type: 2,
        chainId: chain.chainId,
        nonce,
        to: chain.platform.address,
        value: 0n,
        gasLimit: 21_000n,
        ...OUTSIDE_FEES,
      });
      return chain.provider.send('eth_sendRawTransaction', [raw]) as Promise<string>;
    },
    automine: (on: boolean) => chain.provider.send('evm_setAutomine', [on]),
    mine: () => chain.provider.send('evm_mine', []),
    /** A withdrawal of `amount` micro-USDC to a new address, requested and not yet processed (no worker runs). */
    async withdrawal(amount = 1_000_000n): Promise<{ id: string; dest: string }> {
      const dest = newWallet().address;
      const res = await api.request('POST', '/api/v1/payments/withdraw', {
        body: { agentId, amount: (Number(amount) / 1e6).toFixed(6), destinationWallet: dest },
        headers: await walletHeaders(owner, agentId, 'POST /api/v1/payments/withdraw'),
      });
      if (res.status !== 201) throw new Error(`withdrawal refused: ${JSON.stringify(res.body)}`);
      return { id: res.body.data.withdrawalId, dest };
    },
    process: (id: string) => api.app.get(ProcessWithdrawal).execute(id),
    /** The chain transactions a withdrawal was paid with, in the order they were signed. */
    async chainTxsOf(dest: string): Promise<{ nonce: number; status: string }[]> {
      return ds.query(
        `SELECT c.nonce::int AS nonce, c.status FROM chain_txs c
          WHERE c.kind = 'transfer' AND position($1 in c.signed_tx) > 0 ORDER BY c.nonce`,
        [dest.toLowerCase().slice(2)],
      );
    },
    /** Polls `check` until it holds or `ms` pass; answers how long it took (ms), or throws. */
    async within(ms: number, what: string, check: () => Promise<boolean>): Promise<number> {
      const started = Date.now();
      for (;;) {
        if (await check()) return Date.now() - started;
        if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async stop() {
      await chain.provider.send('evm_setAutomine', [true]).catch(() => undefined);
      await api.close();
      await gate.stop();
      await agentServer.stop();
      await chain.stop();
    },
  };
  return stack;
}

export type NonceConflicts = Awaited<ReturnType<typeof startNonceConflicts>>;
