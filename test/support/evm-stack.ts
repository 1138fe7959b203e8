import { DataSource } from 'typeorm';
import { startChain, LocalChain } from '../../scripts/local-chain';
import { startApi, ApiHarness } from './api-harness';
import { evmEnv } from './evm-env';
import { builtApp, RunningProcess, startProcess } from './processes';
import { TestAgentServer } from './agent-server';
import { capabilityPayload, registerAgent, REGISTRATION_FEE_MICROS } from './factories';
import { newWallet } from './wallets';

/** anvil with the project's token, a test agent registered (its fee paid on chain), the api in process and the worker as its own process. */
export interface EvmStack {
  chain: LocalChain;
  agentServer: TestAgentServer;
  api: ApiHarness;
  worker: RunningProcess;
  ds: DataSource;
  agentId: string;
  stop(): Promise<void>;
}

/**
 * Starts an EvmStack; `env` adds to the api's (and the worker's) settings, `apiOptions` to startApi's
 * (the worker reaches the database directly). Stop it in afterAll.
 */
export async function startEvmStack(
  env: Record<string, string>,
  apiOptions: Parameters<typeof startApi>[1] = {},
): Promise<EvmStack> {
  const chain = await startChain();
  const agentServer = await new TestAgentServer().start();
  const api = await startApi(
    { ...evmEnv(chain), OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', ...env },
    apiOptions,
  );
  const owner = newWallet();
  await chain.mint(owner.address, REGISTRATION_FEE_MICROS);
  const res = await registerAgent(
    api,
    owner,
    { endpoints: { execution: agentServer.url }, capabilities: [capabilityPayload()] },
    { asset: chain.usdcAddress },
  );
  if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  const worker = startProcess(builtApp('worker'), { ...api.env, DATABASE_URL: api.databaseUrl });
  return {
    chain,
    agentServer,
    api,
    worker,
    ds: api.app.get(DataSource),
    agentId: res.body.data.id,
    async stop() {
      await chain.provider.send('evm_setAutomine', [true]).catch(() => undefined);
      worker.child.kill('SIGKILL');
      await api.close();
      await agentServer.stop();
      await chain.stop();
    },
  };
}
