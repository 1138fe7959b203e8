import { canonicalJson, validateAgainst } from './json-schema';

describe('execution json-schema adapter', () => {
  it('keeps its exports: validateAgainst (scope optional) and canonicalJson', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    expect(validateAgainst(null, { anything: true }, 'agent-1')).toEqual([]);
    expect(validateAgainst(schema, { n: 1 }, 'agent-1')).toEqual([]);
    expect(validateAgainst(schema, { n: 'x' }, 'agent-1')).toEqual([{ path: '/n', message: 'must be integer' }]);
    expect(validateAgainst(schema, {}, 'agent-1')).toEqual([{ path: '/', message: "must have required property 'n'" }]);
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  it('answers a hostile input quickly instead of blocking the event loop', () => {
    const t0 = Date.now();
    expect(validateAgainst({ type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(50)}!`, 'agent-1')).toEqual([
      { path: '/', message: 'must match pattern "^(a+)+$"' },
    ]);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
