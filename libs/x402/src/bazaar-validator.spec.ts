import { declareDiscoveryExtension, validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { AJV_COMPILES_MAX, bazaarAjvCompiles, validBazaar } from './bazaar-validator';

/** A POST declaration as a resource server sends it (the method is added at request time). */
function declared(inputSchema: Record<string, unknown>, input: unknown) {
  const ext = declareDiscoveryExtension({ bodyType: 'json', input, inputSchema, output: { example: {} } } as never)
    .bazaar as { info: { input: Record<string, unknown> } };
  ext.info.input.method = 'POST';
  return ext;
}

describe('validBazaar', () => {
  it("agrees with the library's validateDiscoveryExtension", () => {
    const cases = [
      declared({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, { text: 'hi' }),
      declared({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } } }, { n: 1 }),
      declared({ type: 'object', properties: { s: { type: 'string', pattern: '^[a-z]+$' } } }, { s: 'abc' }),
      declared({ type: 'object', properties: { s: { type: 'string', pattern: '^[a-z]+$' } } }, { s: 'ABC' }),
      declared({ type: 'object', properties: { a: { $ref: 'https://evil.example/s.json' } } }, { a: 1 }),
    ];
    expect(cases.map((c) => validBazaar(c))).toEqual(cases.map((c) => validateDiscoveryExtension(c as never).valid));
    expect(cases.map((c) => validBazaar(c))).toEqual([true, false, true, false, false]);
  });

  it('answers again from its cache, and for every shape of garbage says invalid without throwing', () => {
    const ok = declared({ type: 'object', properties: { t: { type: 'string' } } }, { t: 'x' });
    expect(validBazaar(ok)).toBe(true);
    expect(validBazaar(JSON.parse(JSON.stringify(ok)))).toBe(true);
    for (const bad of [null, 1, 'x', [], {}, { info: {}, schema: [] }, { info: {}, schema: { type: 'nonsense' } }])
      expect(validBazaar(bad)).toBe(false);
    expect(validBazaar({ info: {}, schema: { properties: { a: { $id: 'x', type: 'string' } } } })).toBe(false);
  });

  it('runs patterns in linear time (a catastrophic backtracking pattern on a long example)', () => {
    const evil = declared(
      { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } },
      { s: `${'a'.repeat(5_000)}!` },
    );
    const started = process.hrtime.bigint();
    expect(validBazaar(evil)).toBe(false);
    // JavaScript's backtracking RegExp would take longer than the age of the universe here.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2_000);
  });

  it('refuses a pattern RE2 cannot run (a backreference) instead of compiling it', () => {
    const backref = declared(
      { type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } },
      { s: 'aa' },
    );
    expect(validBazaar(backref)).toBe(false);
  });
});

describe('the shared Ajv', () => {
  it('is replaced after AJV_COMPILES_MAX compiles (an Ajv keeps what it compiled), and still answers right', () => {
    const results: boolean[] = [];
    const before = bazaarAjvCompiles();
    const n = AJV_COMPILES_MAX * 2 + 10;
    for (let i = 0; i < n; i++) {
      results.push(validBazaar(declared({ type: 'object', properties: { [`p${i}`]: { type: 'integer' } } }, {})));
      expect(bazaarAjvCompiles()).toBeLessThanOrEqual(AJV_COMPILES_MAX);
    }
    // Each new schema is one compile; past the cap the next one starts a fresh Ajv.
    expect(bazaarAjvCompiles()).toBe(((before + n - 1) % AJV_COMPILES_MAX) + 1);
    expect(results.every(Boolean)).toBe(true);
    expect(
      validBazaar(declared({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } } }, { n: 1 })),
    ).toBe(false);
  });
});
