import { SchemaValidator } from './schema-validator';
import { ScopedLruCache } from './validator-cache';

describe('ScopedLruCache', () => {
  it('evicts the least recently used entry of a scope past its per-scope cap', () => {
    const c = new ScopedLruCache<number>({ maxScopes: 10, maxEntriesPerScope: 2, maxTotalBytes: 1e9 });
    c.set('a', 'k1', 1, 1);
    c.set('a', 'k2', 2, 1);
    expect(c.get('a', 'k1')).toBe(1);
    c.set('a', 'k3', 3, 1);
    expect(c.get('a', 'k2')).toBeUndefined();
    expect([c.get('a', 'k1'), c.get('a', 'k3')]).toEqual([1, 3]);
    expect(c.stats()).toEqual({ scopes: 1, entries: 2, bytes: 2 });
  });

  it('drops the least recently used scope past the scope cap, and oldest entries past the byte cap', () => {
    const c = new ScopedLruCache<number>({ maxScopes: 2, maxEntriesPerScope: 10, maxTotalBytes: 100 });
    c.set('a', 'k', 1, 10);
    c.set('b', 'k', 2, 10);
    c.get('a', 'k');
    c.set('c', 'k', 3, 10);
    expect(c.get('b', 'k')).toBeUndefined();
    expect(c.stats()).toEqual({ scopes: 2, entries: 2, bytes: 20 });
    c.set('c', 'big', 4, 85);
    expect(c.get('a', 'k')).toBeUndefined();
    expect(c.stats()).toEqual({ scopes: 1, entries: 2, bytes: 95 });
  });
});

describe('SchemaValidator cache', () => {
  it('stays at its caps however many distinct schemas are compiled', () => {
    const v = new SchemaValidator({ cache: { maxScopes: 4, maxEntriesPerScope: 5, maxTotalBytes: 1e9 } });
    for (let i = 0; i < 400; i++) {
      const schema = { type: 'object', properties: { [`p${i}`]: { type: 'string', pattern: `^v${i}$` } } };
      // 4 agents, then 9: entries reach the per-scope cap, then scopes the scope cap.
      expect(v.validate(`agent-${i % (i < 200 ? 4 : 9)}`, schema, { [`p${i}`]: `v${i}` })).toEqual([]);
      const { scopes, entries } = v.cacheStats();
      expect(scopes).toBeLessThanOrEqual(4);
      expect(entries).toBeLessThanOrEqual(20);
      if (i === 199) expect(v.cacheStats()).toMatchObject({ scopes: 4, entries: 20 });
    }
  });

  it('bounds the estimated heap of the entries', () => {
    const v = new SchemaValidator({ cache: { maxScopes: 100, maxEntriesPerScope: 100, maxTotalBytes: 200_000 } });
    for (let i = 0; i < 100; i++)
      v.validate(`agent-${i}`, { anyOf: Array.from({ length: 20 }, (_, j) => ({ const: i * 100 + j })) }, 0);
    const { bytes, entries } = v.cacheStats();
    expect(bytes).toBeLessThanOrEqual(200_000);
    expect(entries).toBeGreaterThan(5);
    expect(entries).toBeLessThan(100);
  });

  it('keeps a schema that became unusable as an error, not an exception', () => {
    const v = new SchemaValidator();
    // Registered before the bounds existed: refused when used, with the reason.
    expect(v.validate('old-agent', { type: 'string', pattern: '(a)\\1' }, 'aa')).toEqual([
      {
        path: '/',
        message: expect.stringMatching(
          /^the schema cannot be used: it has a pattern "\(a\)\\1" at \/ that cannot run in linear time/,
        ),
      },
    ]);
  });
});
