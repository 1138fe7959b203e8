import { Wallet } from 'ethers';
import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from './api-harness';
import { TestAgentServer } from './agent-server';
import { capabilityPayload, registerAgent } from './factories';
import { newWallet } from './wallets';

/** The api in process, a test agent on loopback registered on it with one capability (`translate`), and how to stop both. */
export interface ApiWithAgent {
  api: ApiHarness;
  ds: DataSource;
  agentServer: TestAgentServer;
  agentId: string;
  /** The agent's wallet. */
  owner: Wallet;
  stop(): Promise<void>;
}

/** `env` adds to the api's settings; `agent` to the registration (a name, the capability's fields). */
export async function startApiWithAgent(
  env: Record<string, string> = {},
  agent: { name?: string; capability?: Parameters<typeof capabilityPayload>[0] } = {},
): Promise<ApiWithAgent> {
  const agentServer = await new TestAgentServer().start();
  const api = await startApi({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true', ...env });
  const owner = newWallet();
  const res = await registerAgent(api, owner, {
    ...(agent.name ? { name: agent.name } : {}),
    endpoints: { execution: agentServer.url },
    capabilities: [capabilityPayload(agent.capability)],
  });
  if (res.status !== 201) throw new Error(`registration failed: ${JSON.stringify(res.body)}`);
  return {
    api,
    agentServer,
    ds: api.app.get(DataSource),
    agentId: res.body.data.id,
    owner,
    async stop() {
      await api.close();
      await agentServer.stop();
    },
  };
}
