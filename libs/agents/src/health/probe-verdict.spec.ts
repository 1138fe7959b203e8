import { probeTarget, probeUp } from './probe-verdict';

describe('probe verdict', () => {
  it('an explicit health URL is probed with a GET and only a 2xx (or a 429: a live host limiting us) is up', () => {
    const t = probeTarget({ execution: 'https://a.example/run', health: 'https://a.example/health' });
    expect(t).toEqual({ url: 'https://a.example/health', method: 'GET', strict: true });
    expect([200, 204, 299, 429].map((s) => probeUp(t, s))).toEqual([true, true, true, true]);
    expect([301, 302, 401, 404, 405, 500, 503].map((s) => probeUp(t, s))).toEqual(Array(7).fill(false));
  });

  it('without one, a HEAD of the execution endpoint: any answer below 500 is up (the host answered)', () => {
    const t = probeTarget({ execution: 'https://a.example/run' });
    expect(t).toEqual({ url: 'https://a.example/run', method: 'HEAD', strict: false });
    // A POST-only, signature-checking endpoint answers a HEAD with these: all mean a live host.
    expect([200, 204, 301, 302, 400, 401, 403, 404, 405, 411, 429, 499].map((s) => probeUp(t, s))).toEqual(
      Array(12).fill(true),
    );
    expect([500, 502, 503, 504, 599].map((s) => probeUp(t, s))).toEqual(Array(5).fill(false));
  });

  it('an empty health URL counts as none', () => {
    expect(probeTarget({ execution: 'https://a.example/run', health: '' }).method).toBe('HEAD');
  });
});
