import { addressKey } from './address-key';

describe('addressKey (per-address limits)', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('keys every address of one IPv6 /64 the same, and another /64 apart', () => {
    const a = addressKey('2001:db8:1:2::1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe(a);
    expect(addressKey('2001:DB8:1:2:abcd:0:0:9')).toBe(a);
    expect(addressKey('[2001:db8:1:2::9]')).toBe(a);
    expect(addressKey('2001:db8:1:3::1')).not.toBe(a);
  });

  it('expands :: wherever it stands', () => {
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('keys an IPv4-mapped IPv6 address as the IPv4 it carries, in either spelling', () => {
    expect(addressKey('::ffff:198.51.100.4')).toBe('198.51.100.4');
    expect(addressKey('::ffff:c633:6404')).toBe('198.51.100.4');
    expect(addressKey('0:0:0:0:0:ffff:198.51.100.4')).toBe('198.51.100.4');
  });

  it('keeps what is not an address', () => {
    expect(addressKey(undefined)).toBe('unknown');
    expect(addressKey('')).toBe('unknown');
    expect(addressKey('not-an-ip')).toBe('not-an-ip');
  });
});
