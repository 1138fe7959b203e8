import { createHash, createHmac } from 'node:crypto';
import { hasSaltedHashes, isAgoraReceiptPayload, receiptHash, receiptHashFor } from './receipt-payload';
import { requestCommitment, saltedReceiptHash, statesRequestId } from './receipt-payload';

const SALT = '5a'.repeat(32);
const jwsOf = (payload: object) =>
  `${Buffer.from('{"alg":"EdDSA"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.sig`;

describe('receipt hashes (issue 52: salted from version 3)', () => {
  it('a version 3 hash is HMAC-SHA256 of the canonical JSON keyed with the salt; version 2 stays bare SHA-256', () => {
    const value = { b: 1, a: 'yes' };
    const canonical = '{"a":"yes","b":1}';
    const salted = `0x${createHmac('sha256', Buffer.from(SALT, 'hex')).update(canonical).digest('hex')}`;
    expect(saltedReceiptHash(value, SALT)).toBe(salted);
    expect(receiptHashFor(3, value, SALT)).toBe(salted);
    expect(receiptHashFor(2, value, undefined)).toBe(`0x${createHash('sha256').update(canonical).digest('hex')}`);
    expect(receiptHashFor(2, value, undefined)).toBe(receiptHash(value));
  });

  it('a short value is not found from its salted hash by hashing guesses', () => {
    const guesses = ['yes', 'no', true, false, 0, 1].map((text) => ({ text }));
    const stated = saltedReceiptHash({ text: 'yes' }, SALT);
    expect(guesses.map((g) => receiptHash(g))).not.toContain(stated);
    expect(saltedReceiptHash({ text: 'yes' }, 'a5'.repeat(32))).not.toBe(stated);
  });

  it('a version 3 hash cannot be checked without the salt', () => {
    expect(receiptHashFor(3, { text: 'yes' }, undefined)).toBeNull();
  });

  it('tells a salted receipt (version 3, JWS or EIP-712) from an older one', () => {
    expect(hasSaltedHashes({ format: 'jws', signature: jwsOf({ version: 3 }) })).toBe(true);
    expect(hasSaltedHashes({ format: 'jws', signature: jwsOf({ version: 2 }) })).toBe(false);
    expect(hasSaltedHashes({ format: 'eip712', signature: '0x', delivery: { payload: { version: 3 } } })).toBe(true);
    expect(hasSaltedHashes({ format: 'eip712', signature: '0x' })).toBe(false);
    expect(hasSaltedHashes({ format: 'jws', signature: 'not a jws' })).toBe(false);
  });

  it('version 4 commits to the request id (HMAC of its JSON string under the salt), 2 and 3 state it in plain', () => {
    const hex = createHmac('sha256', Buffer.from(SALT, 'hex')).update('"req_abc"').digest('hex');
    expect(requestCommitment('req_abc', SALT)).toBe(`0x${hex}`);
    const base = {
      network: 'eip155:84532',
      resourceUrl: 'https://a.example/x',
      payer: '0x1',
      issuedAt: 1,
      transaction: '0x2',
      agentId: 'agt_1',
      capabilityId: 'c',
      amount: '1',
      agentFee: '1',
      platformFee: '0',
      inputHash: `0x${'11'.repeat(32)}`,
      contentHash: `0x${'22'.repeat(32)}`,
      settlementPending: false,
    };
    const v4 = { ...base, version: 4, requestCommitment: requestCommitment('req_abc', SALT) };
    const v3 = { ...base, version: 3, requestId: 'req_abc' };
    expect([isAgoraReceiptPayload(v4), isAgoraReceiptPayload(v3)]).toEqual([true, true]);
    // Each version has exactly its fields: a v4 naming the request id, or a v3 without it, is not a receipt.
    expect(isAgoraReceiptPayload({ ...v4, requestId: 'req_abc' })).toBe(false);
    expect(isAgoraReceiptPayload({ ...v3, version: 4 })).toBe(false);
    expect(isAgoraReceiptPayload({ ...v4, version: 3 })).toBe(false);
    expect(isAgoraReceiptPayload({ ...v4, requestCommitment: 'req_abc' })).toBe(false);
    expect(JSON.stringify(v4)).not.toContain('req_');
    expect(statesRequestId(v4, 'req_abc', SALT)).toBe(true);
    expect(statesRequestId(v4, 'req_abd', SALT)).toBe(false);
    expect(statesRequestId(v4, 'req_abc', undefined)).toBeNull();
    expect(statesRequestId(v3, 'req_abc', undefined)).toBe(true);
  });
});
