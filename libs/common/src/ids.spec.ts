import { newId } from './ids';

describe('newId', () => {
  it('gives prefixed, 16-character url-safe ids, all different across many pool refills', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('req'));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9_-]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
