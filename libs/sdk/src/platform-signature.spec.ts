import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { agoraSignedText, verifyAgoraSignature } from './platform-signature';

const AGENT = '0f0e0d0c-0b0a-4909-8807-060504030201';
const OTHER = '11111111-2222-4333-8444-555555555555';

describe('verifyAgoraSignature', () => {
  const keys = generateKeyPairSync('ed25519');
  const raw = keys.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
  const body = JSON.stringify({ agentId: AGENT, requestId: 'req_1', capabilityId: 'c', input: {} });
  const digest = createHash('sha256').update(body).digest('hex');
  const header = (text: string, t: number) =>
    `t=${t},ed25519=${sign(null, Buffer.from(text), keys.privateKey).toString('base64')}`;
  const now = () => Math.floor(Date.now() / 1000);

  it('builds the documented text', () => {
    expect(agoraSignedText('call', 5, [AGENT, 'req_1'], body)).toBe(`agora-call.v2.5.${AGENT}.req_1.${digest}`);
    expect(agoraSignedText('attestation', 5, ['tx_1'], body)).toBe(`agora-attestation.v2.5.tx_1.${digest}`);
    expect(agoraSignedText('callback', 5, ['a.b'], body)).toBeNull();
  });

  it('accepts a call signed for this agent, and nothing signed for another agent, another purpose or without a label', () => {
    const t = now();
    const call = header(`agora-call.v2.${t}.${AGENT}.req_1.${digest}`, t);
    expect(verifyAgoraSignature(call, 'call', [AGENT, 'req_1'], body, [raw])).toBe(true);
    expect(verifyAgoraSignature(call, 'call', [OTHER, 'req_1'], body, [raw])).toBe(false);
    expect(verifyAgoraSignature(call, 'attestation', ['req_1'], body, [raw])).toBe(false);
    for (const text of [
      `agora-attestation.v2.${t}.req_1.${digest}`,
      `agora-callback.v2.${t}.req_1.${digest}`,
      `${t}.req_1.${digest}`,
    ]) {
      expect(verifyAgoraSignature(header(text, t), 'call', [AGENT, 'req_1'], body, [raw])).toBe(false);
    }
  });

  it('holds the time window unless told not to (an attestation is checked long after it was made)', () => {
    const t = now() - 3600;
    const attestation = header(`agora-attestation.v2.${t}.tx_1.${digest}`, t);
    expect(verifyAgoraSignature(attestation, 'attestation', ['tx_1'], body, [raw])).toBe(false);
    expect(verifyAgoraSignature(attestation, 'attestation', ['tx_1'], body, [raw], Infinity)).toBe(true);
    expect(verifyAgoraSignature(attestation, 'toString' as never, ['tx_1'], body, [raw], Infinity)).toBe(false);
  });
});
