import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { BAZAAR_MAX_BYTES, bazaarExtensions, containsSubset, echoMismatch, serviceNameOf, tagsOf } from './x402-bazaar';
import { exampleFromSchema, exampleObject } from './schema-example';

describe('exampleFromSchema', () => {
  it('prefers examples, const, default and enum, in that order', () => {
    expect(exampleFromSchema({ type: 'string', examples: ['hi'], default: 'd' })).toBe('hi');
    expect(exampleFromSchema({ const: 3, default: 4 })).toBe(3);
    expect(exampleFromSchema({ type: 'string', default: 'd', enum: ['e'] })).toBe('d');
    expect(exampleFromSchema({ enum: ['fr', 'de'] })).toBe('fr');
  });

  it('builds type placeholders that satisfy simple constraints', () => {
    expect(
      exampleObject({
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 10 },
          n: { type: 'integer', minimum: 2 },
          x: { type: 'number', exclusiveMinimum: 0.5 },
          ok: { type: 'boolean' },
          at: { type: 'string', format: 'date-time' },
          list: { type: 'array', items: { type: 'string' } },
          maybe: { type: ['null', 'string'] },
          pick: { oneOf: [{ type: 'integer' }, { type: 'string' }] },
        },
        required: ['text'],
      }),
    ).toEqual({
      text: 'stringxxxx',
      n: 2,
      x: 1.5,
      ok: false,
      at: '2025-01-01T00:00:00Z',
      list: ['string'],
      maybe: 'string',
      pick: 0,
    });
  });

  it('is bounded on deep and huge schemas', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 1000; i++) deep = { type: 'object', properties: { a: deep } };
    expect(JSON.stringify(exampleFromSchema(deep)).length).toBeLessThan(100);
    const wide = { type: 'object', properties: Object.fromEntries([...Array(5000)].map((_, i) => [`k${i}`, {}])) };
    expect(Object.keys(exampleObject(wide))).toHaveLength(24);
    // 20 properties sharing one subschema, 8 levels: 20^8 paths, written in 8 objects.
    let fan: Record<string, unknown> = { type: 'string' };
    for (let d = 0; d < 8; d++) {
      const sub = fan;
      fan = { type: 'object', properties: Object.fromEntries([...Array(20)].map((_, i) => [`p${i}`, sub])) };
    }
    expect(JSON.stringify(exampleFromSchema(fan)).length).toBeLessThan(20_000);
    expect(exampleFromSchema({ type: 'string', examples: ['x'.repeat(10_000)] })).toBe('string');
  });

  it('answers null or {} for what it cannot read', () => {
    expect(exampleFromSchema(null)).toBeNull();
    expect(exampleFromSchema({ $ref: '#/x' })).toBeNull();
    expect(exampleObject({ type: 'string' })).toEqual({});
  });
});

describe('resource metadata', () => {
  it('serviceName: printable ASCII, 1-32 characters', () => {
    expect(serviceNameOf('  Traducción   rápida  ')).toBe('Traduccion rapida');
    expect(serviceNameOf('x'.repeat(50))).toHaveLength(32);
    expect(serviceNameOf('翻訳\u0000')).toBeUndefined();
  });

  it('tags: sanitized, at most 5, each at most 32, deduplicated case-insensitively', () => {
    expect(tagsOf(['translate', 'Translate', 'é', '', 'b'.repeat(40), 'c', 'd', 'e', 'f'])).toEqual([
      'translate',
      'e',
      'b'.repeat(32),
      'c',
      'd',
    ]);
  });
});

describe('bazaar extension and echo rule', () => {
  const ext = bazaarExtensions({
    path: '/api/v1/agents/a1/capabilities/tr/execute',
    routeTemplate: '/api/v1/agents/:agentId/capabilities/:capabilityId/execute',
    body: { text: 'string' },
    bodySchema: { $id: 'urn:x', type: 'object', properties: { text: { type: 'string' } } },
    output: { translation: 'string' },
    outputSchema: { type: 'object', properties: { translation: { type: 'string' } } },
  });
  const bazaar = ext.bazaar as { info: { input: Record<string, unknown> }; routeTemplate: string };

  it('declares an http POST json input with path params and validates against its own schema', () => {
    expect(bazaar.info.input).toMatchObject({
      type: 'http',
      method: 'POST',
      bodyType: 'json',
      body: { text: 'string' },
      pathParams: { agentId: 'a1', capabilityId: 'tr' },
    });
    expect(bazaar.routeTemplate).toBe('/api/v1/agents/:agentId/capabilities/:capabilityId/execute');
    expect(validateDiscoveryExtension(bazaar as never)).toEqual({ valid: true });
  });

  it('passes the same echo, an echo with extra keys, no echo; refuses a changed value', () => {
    const info = bazaar.info;
    expect(echoMismatch(ext, undefined)).toBeNull();
    expect(echoMismatch(ext, {})).toBeNull();
    expect(echoMismatch(ext, { bazaar: { info } })).toBeNull();
    expect(echoMismatch(ext, { bazaar: { info: { ...info, extra: 1 } }, other: { x: 1 } })).toBeNull();
    expect(echoMismatch(ext, { bazaar: { info: { ...info, input: { ...info.input, method: 'GET' } } } })).toBe(
      'bazaar',
    );
    expect(echoMismatch(ext, { bazaar: { info: { input: info.input } } })).toBe('bazaar');
  });

  it('containsSubset compares arrays and scalars exactly and objects by subset', () => {
    expect(containsSubset({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }], c: 3 })).toBe(true);
    expect(containsSubset({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(containsSubset({ a: { b: 1 } }, { a: { b: 1, c: 2 } })).toBe(true);
    expect(containsSubset({ a: undefined }, {})).toBe(true);
  });

  it('answers a hostile, deeply nested echo with a mismatch, not a stack overflow', () => {
    const nested = () => {
      let v: unknown = 'http';
      for (let i = 0; i < 5_000; i++) v = [v];
      return v;
    };
    const deep = nested();
    const info = bazaar.info;
    const echo = { bazaar: { info: { ...info, input: { ...info.input, type: deep } } } };
    expect(echoMismatch(ext, echo)).toBe('bazaar');
    expect(containsSubset(nested(), nested())).toBe(false);
  });
});

describe('bazaar extension: bounded and valid whatever the capability schemas', () => {
  const route = (bodySchema: Record<string, unknown>, outputSchema?: Record<string, unknown>) => ({
    path: '/api/v1/agents/a1/capabilities/tr/execute',
    routeTemplate: '/api/v1/agents/:agentId/capabilities/:capabilityId/execute',
    body: exampleObject(bodySchema),
    bodySchema,
    output: exampleFromSchema(outputSchema) ?? {},
    outputSchema,
  });
  const big = (n: number) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: n }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(200) }]),
    ),
  });

  it('keeps the extension under its byte budget for two 32 KB schemas, and valid', () => {
    const schema = big(140);
    expect(JSON.stringify(schema).length).toBeGreaterThan(30_000);
    const { bazaar } = bazaarExtensions(route(schema, schema));
    expect(JSON.stringify(bazaar).length).toBeLessThanOrEqual(BAZAAR_MAX_BYTES);
    expect(validateDiscoveryExtension(bazaar as never)).toEqual({ valid: true });
  });

  it('stays valid when the example cannot satisfy the schema (pattern, local $ref)', () => {
    const pattern = {
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
      required: ['code'],
    };
    const withRef = {
      type: 'object',
      $defs: { t: { type: 'string' } },
      properties: { t: { $ref: '#/$defs/t' } },
      required: ['t'],
    };
    for (const schema of [pattern, withRef]) {
      const { bazaar } = bazaarExtensions(route(schema));
      expect(validateDiscoveryExtension(bazaar as never)).toEqual({ valid: true });
    }
  });

  it('keeps the capability schema when it fits and the example satisfies it', () => {
    const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
    const { bazaar } = bazaarExtensions(route(schema)) as { bazaar: { schema: unknown } };
    expect(JSON.stringify(bazaar.schema)).toContain('"text"');
  });
});
