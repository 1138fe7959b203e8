import { Metrics } from './metrics';

describe('Metrics.payloadStorage', () => {
  it('appears with the first measure, names only the agents given, and drops an agent that left the top', async () => {
    const m = new Metrics({ process: 'test', defaultMetrics: false });
    expect(await m.text()).not.toMatch(/payload/);
    m.payloadStorage({
      top: [
        { agentId: 'a', bytes: 300 },
        { agentId: 'b', bytes: 200 },
      ],
      totalBytes: 600,
      agents: 3,
    });
    m.payloadStorage({
      top: [
        { agentId: 'c', bytes: 900 },
        { agentId: 'a', bytes: 300 },
      ],
      totalBytes: 1_400,
      agents: 3,
    });
    const text = await m.text();
    expect(text).toContain('agora_agent_execution_payload_bytes{agent_id="c",process="test"} 900');
    expect(text).toContain('agora_agent_execution_payload_bytes{agent_id="a",process="test"} 300');
    expect(text).not.toContain('agent_id="b"');
    expect(text).toContain('agora_execution_payload_bytes{process="test"} 1400');
    expect(text).toContain('agora_execution_payload_agents{process="test"} 3');
  });
});
