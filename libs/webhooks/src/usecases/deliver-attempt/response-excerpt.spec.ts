import { responseExcerpt } from './deliver-attempt.usecase';

describe('responseExcerpt (what the delivery log keeps of an answer)', () => {
  it('keeps 2,048 bytes of UTF-8, not characters: a character cut at the end becomes U+FFFD', () => {
    const kept = responseExcerpt('é'.repeat(3_000)); // 2 bytes each
    expect(Buffer.byteLength(kept)).toBe(2_048);
    expect(kept).toBe('é'.repeat(1_024));
    const cut = responseExcerpt(`a${'é'.repeat(3_000)}`);
    expect(cut).toBe(`a${'é'.repeat(1_023)}\uFFFD`);
  });

  it('replaces NUL, which a text column cannot hold, and keeps a short answer whole', () => {
    expect(responseExcerpt('{"ok":true}\u0000')).toBe('{"ok":true}\uFFFD');
    expect(responseExcerpt('')).toBe('');
  });
});
