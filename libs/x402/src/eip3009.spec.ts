import fc from 'fast-check';
import { TypedDataEncoder, Wallet } from 'ethers';
import { recoverSigner } from '@app/common';
import { transferAuthorizationDigest } from './eip3009';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from './eip3009';

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}`);
const uint = fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(String);
const authorization = fc.record({
  from: hex(20),
  to: hex(20),
  value: uint,
  validAfter: uint,
  validBefore: uint,
  nonce: hex(32),
});
const domain = fc.record({
  name: fc.string({ maxLength: 20 }),
  version: fc.constantFrom('1', '2'),
  chainId: fc.integer({ min: 1, max: 2 ** 31 }),
  verifyingContract: hex(20),
});

describe('transferAuthorizationDigest', () => {
  it('equals the generic EIP-712 encoder for any authorization and domain (2,000 runs in CI)', () => {
    fc.assert(
      fc.property(domain, authorization, (d, a) => {
        expect(transferAuthorizationDigest(d, a)).toBe(TypedDataEncoder.hash(d, TRANSFER_WITH_AUTHORIZATION_TYPES, a));
      }),
      propertyParams(2_000),
    );
  });

  it('recovers the signer of a wallet-signed authorization', async () => {
    const wallet = Wallet.createRandom();
    const d = {
      name: 'USDC',
      version: '2',
      chainId: 84532,
      verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    };
    const a = {
      from: wallet.address,
      to: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
      value: '11000',
      validAfter: '0',
      validBefore: '1900000000',
      nonce: `0x${'ab'.repeat(32)}`,
    };
    const signature = await wallet.signTypedData(d, TRANSFER_WITH_AUTHORIZATION_TYPES, a);
    expect(recoverSigner(transferAuthorizationDigest(d, a), signature)).toBe(wallet.address);
    expect(recoverSigner(transferAuthorizationDigest(d, { ...a, value: '11001' }), signature)).not.toBe(wallet.address);
  });

  it('refuses what the generic encoder refuses: out-of-range integers, malformed addresses and nonces', () => {
    const d = { name: 'USDC', version: '2', chainId: 1, verifyingContract: `0x${'11'.repeat(20)}` };
    const a = {
      from: `0x${'22'.repeat(20)}`,
      to: `0x${'33'.repeat(20)}`,
      value: '1',
      validAfter: '0',
      validBefore: '1',
      nonce: `0x${'44'.repeat(32)}`,
    };
    for (const bad of [
      { value: (1n << 256n).toString() },
      { value: '-1' },
      { from: '0x1234' },
      { nonce: '0x12' },
      { to: 'not an address' },
    ]) {
      expect(() => transferAuthorizationDigest(d, { ...a, ...bad })).toThrow();
      expect(() => TypedDataEncoder.hash(d, TRANSFER_WITH_AUTHORIZATION_TYPES, { ...a, ...bad })).toThrow();
    }
  });
});
