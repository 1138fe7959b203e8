import { storableText, unstorablePath } from './storable';

describe('storable text', () => {
  it('finds NUL and unpaired surrogates in strings and keys, wherever they are', () => {
    expect(unstorablePath({ a: [1, 'ok', { b: 'x\u0000y' }] })).toBe('/a/2/b');
    expect(unstorablePath({ ['k\u0000']: 1 })).toBe('/k\ufffd');
    expect(unstorablePath(['\ud800'])).toBe('/0');
    expect(unstorablePath('\udc00x')).toBe('/');
    expect(unstorablePath({ emoji: '\ud83d\ude00', text: 'héllo', n: null, t: true })).toBeNull();
  });

  it('replaces what cannot be stored and leaves the rest', () => {
    expect(storableText('a\u0000b\ud800c\ud83d\ude00')).toBe('a\ufffdb\ufffdc\ud83d\ude00');
    expect(storableText('plain')).toBe('plain');
  });
});
