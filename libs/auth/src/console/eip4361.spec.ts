import type * as Siwe from 'viem/siwe' with { 'resolution-mode': 'import' };
import { formatSignInMessage, parseSignInMessage, SignInFields } from './eip4361';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createSiweMessage, parseSiweMessage } = require('viem/siwe') as typeof Siwe;

const FIELDS: SignInFields = {
  domain: 'agora.example.com',
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  statement: 'Sign in to the agora console to read my agent',
  uri: 'https://agora.example.com',
  version: '1',
  chainId: 84532,
  nonce: 'mhx3k2pqX0123456789abcdef0123456789abcdef01234567',
  issuedAt: new Date('2026-11-28T10:00:00.000Z'),
  expirationTime: new Date('2026-11-28T10:30:00.000Z'),
  resources: ['agora:agent:0b5c6a56-3d44-4c8e-9b1e-2f0f5d6c7a88'],
};

/** The sign-in message is EIP-4361 as viem (a maintained SIWE implementation) writes and reads it. */
describe('EIP-4361 sign-in messages', () => {
  it('formats byte for byte as viem does, and parses what viem writes', () => {
    const viem = createSiweMessage({ ...FIELDS, address: FIELDS.address as `0x${string}` });
    expect(formatSignInMessage(FIELDS)).toBe(viem);
    expect(parseSignInMessage(viem)).toEqual(FIELDS);
    const noStatement = createSiweMessage({
      ...FIELDS,
      address: FIELDS.address as `0x${string}`,
      statement: undefined,
    });
    expect(parseSignInMessage(noStatement)).toEqual({ ...FIELDS, statement: undefined });
    expect(parseSiweMessage(formatSignInMessage(FIELDS))).toMatchObject({
      nonce: FIELDS.nonce,
      resources: FIELDS.resources,
    });
  });

  it('refuses what does not follow the layout', () => {
    const good = formatSignInMessage(FIELDS);
    for (const bad of [
      good.replace('wants you to sign in', 'wants you to log in'),
      good.replace(FIELDS.address, '0x1234'),
      good.replace('Version: 1', 'Version: 2'),
      good.replace(/Nonce: .*/, 'Nonce: short'),
      good.replace(/Issued At: .*/, 'Issued At: yesterday'),
      good.replace('URI: ', 'Uri: '),
      `${good}\nExtra: line`,
      good.replace(/\nChain ID: .*/, ''),
    ])
      expect(parseSignInMessage(bad)).toBeNull();
  });
});
