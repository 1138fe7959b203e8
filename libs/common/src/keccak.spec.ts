import { randomBytes } from 'node:crypto';
import { getAddress, keccak256 as ethersKeccak } from 'ethers';
import { checksumAddress, keccak256 } from './keccak';

describe('native keccak256 and EIP-55 checksums', () => {
  it('agrees with ethers on 2,000 random inputs, as bytes and as hex', () => {
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomBytes(i % 300);
      const expected = ethersKeccak(bytes);
      expect(keccak256(bytes)).toBe(expected);
      expect(keccak256(`0x${bytes.toString('hex')}`)).toBe(expected);
      // A view into a larger buffer hashes only its own bytes.
      const framed = Buffer.concat([randomBytes(3), bytes, randomBytes(5)]);
      expect(keccak256(framed.subarray(3, 3 + bytes.length))).toBe(expected);
    }
  });

  it('refuses hex it cannot read', () => {
    expect(() => keccak256('abcd')).toThrow();
    expect(() => keccak256('0xabc')).toThrow();
    expect(() => keccak256('0xzz')).toThrow();
  });

  it('checksums 2,000 random addresses as ethers getAddress does, from any case', () => {
    for (let i = 0; i < 2_000; i++) {
      const hex = randomBytes(20).toString('hex');
      const expected = getAddress(`0x${hex}`);
      expect(checksumAddress(`0x${hex}`)).toBe(expected);
      expect(checksumAddress(`0x${hex.toUpperCase()}`)).toBe(expected);
      expect(checksumAddress(hex)).toBe(expected);
      expect(checksumAddress(expected)).toBe(expected);
    }
  });

  it('refuses a wrong mixed-case checksum and malformed addresses, as ethers does', () => {
    const good = getAddress(`0x${'ab'.repeat(20)}`);
    const bad =
      good.slice(0, 2) +
      [...good.slice(2)]
        .map((c) => (/[a-f]/.test(c) ? c.toUpperCase() : /[A-F]/.test(c) ? c.toLowerCase() : c))
        .join('');
    expect(() => getAddress(bad)).toThrow();
    expect(() => checksumAddress(bad)).toThrow();
    expect(() => checksumAddress('0x1234')).toThrow();
    expect(() => checksumAddress(`0x${'g'.repeat(40)}`)).toThrow();
  });
});
