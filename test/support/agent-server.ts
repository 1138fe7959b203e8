import { AgentCall, RunningAgent, startTranslatorAgent } from '../../examples/translator-agent';

export type { AgentCall };

/**
 * The example agent (examples/translator-agent.js) as the tests drive it. Its behaviour comes
 * from `input.mode` or `defaultMode`: ok, fail (500), slow (2 s), bad-output, not-json. With a
 * `platformUrl` it verifies every call and serves only the agent ids given to `serve`.
 */
export class TestAgentServer {
  private agent?: RunningAgent;
  url = '';

  constructor(private readonly platformUrl: string | null = null) {}

  get calls(): AgentCall[] {
    return this.agent!.state.calls;
  }

  get defaultMode(): string {
    return this.agent!.state.defaultMode;
  }

  set defaultMode(mode: string) {
    this.agent!.state.defaultMode = mode;
  }

  async start(): Promise<this> {
    this.agent = await startTranslatorAgent({ platformUrl: this.platformUrl });
    this.url = this.agent.url;
    return this;
  }

  /** Accept the platform's signed calls to `agentId` (once registering this URL gave it). */
  serve(agentId: string): this {
    this.agent!.serve(agentId);
    return this;
  }

  stop(): Promise<void> {
    return this.agent ? this.agent.stop() : Promise.resolve();
  }
}
