import { canonicalJson, validateValue } from './index';

describe('validateValue (what execution validates inputs and outputs with)', () => {
  it('keeps its exports: validateValue (scoped by agent) and canonicalJson', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    expect(validateValue('agent-1', null, { anything: true })).toEqual([]);
    expect(validateValue('agent-1', schema, { n: 1 })).toEqual([]);
    expect(validateValue('agent-1', schema, { n: 'x' })).toEqual([{ path: '/n', message: 'must be integer' }]);
    expect(validateValue('agent-1', schema, {})).toEqual([{ path: '/', message: "must have required property 'n'" }]);
    expect(canonicalJson({ b: 1, a: [true, null] })).toBe('{"a":[true,null],"b":1}');
  });

  it('answers a hostile input quickly instead of blocking the event loop', () => {
    const t0 = Date.now();
    expect(validateValue('agent-1', { type: 'string', pattern: '^(a+)+$' }, `${'a'.repeat(50)}!`)).toEqual([
      { path: '/', message: 'must match pattern "^(a+)+$"' },
    ]);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});
