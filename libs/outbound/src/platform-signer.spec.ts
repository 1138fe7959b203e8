import { createHash, verify } from 'node:crypto';
import { SystemClock } from '@app/common';
import { loadConfig } from '@app/config';
import { ed25519FromSeed, platformSignedText, PlatformSigner } from './platform-signer';

const SEED = '11'.repeat(32);
const AGENT = '0f0e0d0c-0b0a-4909-8807-060504030201';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('PlatformSigner', () => {
  const signer = new PlatformSigner(loadConfig({ NODE_ENV: 'test', PLATFORM_SIGNING_SEED: SEED }), new SystemClock());
  const { publicKey } = ed25519FromSeed(SEED);
  const parse = (header: string) => {
    const m = /^t=(\d+),ed25519=([A-Za-z0-9+/=]+)$/.exec(header)!;
    return { t: Number(m[1]), signature: Buffer.from(m[2], 'base64') };
  };
  const signs = (header: string, text: string) => verify(null, Buffer.from(text), publicKey, parse(header).signature);

  it('signs a call as "agora-call.v2.<t>.<agentId>.<requestId>.<sha256 hex of body>"', () => {
    const body = JSON.stringify({ agentId: AGENT, requestId: 'req_1', capabilityId: 'c', input: {} });
    const header = signer.callSignature(AGENT, 'req_1', body, 1_700_000_000);
    expect(parse(header).t).toBe(1_700_000_000);
    expect(signs(header, `agora-call.v2.1700000000.${AGENT}.req_1.${sha(body)}`)).toBe(true);
    // Not the format before labels, nor a call to another agent.
    expect(signs(header, `1700000000.req_1.${sha(body)}`)).toBe(false);
    expect(signs(header, `agora-call.v2.1700000000.11111111-2222-4333-8444-555555555555.req_1.${sha(body)}`)).toBe(
      false,
    );
  });

  it('gives callbacks and attestations their own labels, so neither verifies as a call', () => {
    const body = '{"requestId":"req_1","status":"completed"}';
    const callback = signer.callbackSignature('req_1', body, 1_700_000_000);
    const attestation = signer.attestationSignature('tx_1', body, 1_700_000_000);
    expect(signs(callback, `agora-callback.v2.1700000000.req_1.${sha(body)}`)).toBe(true);
    expect(signs(attestation, `agora-attestation.v2.1700000000.tx_1.${sha(body)}`)).toBe(true);
    for (const header of [callback, attestation]) {
      expect(signs(header, `agora-call.v2.1700000000.${AGENT}.req_1.${sha(body)}`)).toBe(false);
      expect(signs(header, `1700000000.req_1.${sha(body)}`)).toBe(false);
    }
  });

  it('refuses a subject id that is empty or holds a dot (the signed text would be ambiguous)', () => {
    expect(() => platformSignedText('call', 1, ['a.b', 'req_1'], '')).toThrow(/dot-free/);
    expect(() => platformSignedText('callback', 1, [''], '')).toThrow(/non-empty/);
  });
});
