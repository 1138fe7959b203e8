import { Metrics } from './metrics';

describe('Metrics.payloadStorage', () => {
  it('appears with the first measure, names only the agents and payers given, and drops one that left the top', async () => {
    const m = new Metrics({ process: 'test', defaultMetrics: false });
    expect(await m.text()).not.toMatch(/payload/);
    const payers = { top: [{ key: '0xaa', bytes: 600 }], totalBytes: 600, holders: 1 };
    m.payloadStorage({
      agents: {
        top: [
          { key: 'a', bytes: 300 },
          { key: 'b', bytes: 200 },
        ],
        totalBytes: 600,
        holders: 3,
      },
      payers,
    });
    m.payloadStorage({
      agents: {
        top: [
          { key: 'c', bytes: 900 },
          { key: 'a', bytes: 300 },
        ],
        totalBytes: 1_400,
        holders: 3,
      },
      payers: { top: [{ key: '0xbb', bytes: 1_400 }], totalBytes: 1_400, holders: 2 },
    });
    const text = await m.text();
    expect(text).toContain('agora_agent_execution_payload_bytes{agent_id="c",process="test"} 900');
    expect(text).toContain('agora_agent_execution_payload_bytes{agent_id="a",process="test"} 300');
    expect(text).not.toContain('agent_id="b"');
    expect(text).toContain('agora_execution_payload_bytes{process="test"} 1400');
    expect(text).toContain('agora_execution_payload_agents{process="test"} 3');
    expect(text).toContain('agora_payer_execution_payload_bytes{payer="0xbb",process="test"} 1400');
    expect(text).not.toContain('payer="0xaa"');
    expect(text).toContain('agora_execution_payload_payers{process="test"} 2');
  });
});
