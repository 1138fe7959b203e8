import { blockedAddressReason, blockedHostnameReason } from './address-policy';
import { OutboundUrlPolicy } from './outbound-url.policy';
import { loadConfig } from '@app/config';

/** The static SSRF corpus: every spelling below must be refused before any connection. */
const BLOCKED_URLS = [
  'https://127.0.0.1/',
  'https://127.1/',
  'https://0x7f.1/',
  'https://0x7f000001/',
  'https://2130706433/',
  'https://017700000001/',
  'https://0177.0.0.1/',
  'https://127.000.000.001/',
  'https://0.0.0.0/',
  'https://0/',
  'https://[::1]/',
  'https://[::]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://[0:0:0:0:0:ffff:127.0.0.1]/',
  'https://[::127.0.0.1]/',
  'https://169.254.169.254/latest/meta-data/',
  'https://[::ffff:a9fe:a9fe]/',
  'https://[::ffff:169.254.169.254]/',
  'https://2852039166/',
  'https://[fd00:ec2::254]/',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://10.0.0.1/',
  'https://172.16.0.1/',
  'https://192.168.1.1/',
  'https://100.64.0.1/',
  'https://198.18.0.1/',
  'https://224.0.0.1/',
  'https://255.255.255.255/',
  'https://[fe80::1]/',
  'https://[fc00::1]/',
  'https://[ff02::1]/',
  'https://[64:ff9b::7f00:1]/',
  'https://[2002:7f00:1::]/',
  'https://[2001::1]/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'http://93.184.216.34/',
  'ftp://93.184.216.34/',
  'file:///etc/passwd',
  'https://user:pass@93.184.216.34/',
];

describe('outbound address policy', () => {
  const policy = new OutboundUrlPolicy(loadConfig({}), async () => []);

  it(`refuses all ${BLOCKED_URLS.length} SSRF corpus targets`, () => {
    expect(BLOCKED_URLS.length).toBeGreaterThanOrEqual(30);
    const allowed = BLOCKED_URLS.filter((u) => policy.staticReason(u) === null);
    expect(allowed).toEqual([]);
  });

  it('allows public unicast addresses and names', () => {
    for (const u of [
      'https://93.184.216.34/',
      'https://[2606:2800:220:1:248:1893:25c8:1946]/',
      'https://agent.example.com:8443/run',
    ]) {
      expect({ u, reason: policy.staticReason(u) }).toEqual({ u, reason: null });
    }
  });

  it('unwraps IPv4 embedded in IPv6 before judging', () => {
    expect(blockedAddressReason('::ffff:8.8.8.8')).toBeNull();
    expect(blockedAddressReason('::ffff:10.0.0.1')).toBe('private');
    expect(blockedAddressReason('64:ff9b::a00:1')).toBe('private');
    expect(blockedAddressReason('2002:a9fe:a9fe::')).toBe('linkLocal');
  });

  it('flags reserved host names', () => {
    expect(blockedHostnameReason('metadata.google.internal')).not.toBeNull();
    expect(blockedHostnameReason('agent.example.com')).toBeNull();
  });

  it('lets development settings allow http and loopback explicitly', () => {
    const dev = new OutboundUrlPolicy(
      loadConfig({ OUTBOUND_ALLOW_HTTP: 'true', OUTBOUND_ALLOW_PRIVATE: 'true' }),
      async () => [],
    );
    expect(dev.staticReason('http://127.0.0.1:4000/run')).toBeNull();
    expect(dev.staticReason('ftp://127.0.0.1/')).toBe('scheme must be http or https');
    const httpOnly = new OutboundUrlPolicy(loadConfig({ OUTBOUND_ALLOW_HTTP: 'true' }), async () => []);
    expect(httpOnly.staticReason('http://127.0.0.1:4000/run')).toBe('address is loopback');
  });
});

describe('OutboundUrlPolicy.check (DNS)', () => {
  const answers: Record<string, string[]> = {
    'internal.agents.test': ['10.0.0.1'],
    'mixed.agents.test': ['93.184.216.34', '127.0.0.1'],
    'mapped.agents.test': ['::ffff:169.254.169.254'],
    'public.agents.test': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  };
  const resolver = async (host: string) => {
    if (answers[host]) return answers[host];
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  };
  const policy = new OutboundUrlPolicy(loadConfig({}), resolver);

  it('refuses a name when any answer is a blocked address', async () => {
    await expect(policy.check('https://internal.agents.test/run')).rejects.toThrow(/private/);
    await expect(policy.check('https://mixed.agents.test/run')).rejects.toThrow(/loopback/);
    await expect(policy.check('https://mapped.agents.test/run')).rejects.toThrow(/linkLocal/);
  });

  it('accepts public answers, and names that do not resolve yet', async () => {
    await expect(policy.check('https://public.agents.test/run')).resolves.toBeUndefined();
    await expect(policy.check('https://not-yet.agents.test/run')).resolves.toBeUndefined();
  });
});
