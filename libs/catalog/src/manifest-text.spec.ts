import { markdownText, plainText } from './manifest-text';

describe('manifest text (agent-written, untrusted)', () => {
  it('drops controls, bidi overrides and zero-width characters, and keeps one line', () => {
    expect(plainText('a\u0000b\u202Ec\u200Bd\u2066e\nf\u2028g\uFEFFh', 100)).toBe('a b c d e f g h');
    expect(plainText('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
    // Never cut inside a surrogate pair.
    expect(plainText(`${'x'.repeat(8)}😀😀`, 10)).toBe(`${'x'.repeat(8)}…`);
  });

  it('escapes what Markdown would turn into a link, an autolink, a tag or a heading', () => {
    expect(markdownText('[click](javascript:alert(1))', 100)).toBe('\\[click\\]\\(javascript:alert\\(1\\)\\)');
    expect(markdownText('Weatherman: Weather forecast', 100)).toBe('Weatherman: Weather forecast');
    expect(markdownText('mail me@evil.example', 100)).toBe('mail me\\@evil.example');
    expect(markdownText('see https://evil.example/x and www.evil.example', 100)).toBe(
      'see https\\://evil.example/x and www\\.evil.example',
    );
    expect(markdownText('<script>## Docs', 100)).toBe('\\<script\\>\\#\\# Docs');
  });
});
