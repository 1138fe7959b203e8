import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { bodySignature, eventDeliveryHeaders, secretKey, standardSignature, whsecProblem } from './webhook-signature';
import { retryAfterMs } from './delivery.service';

describe('webhook signatures', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"evt_1","type":"escrow.released"}';

  it('a whsec_ secret must be canonical base64 of a 24-64 byte key; one that is not never signs (no empty key)', () => {
    expect(whsecProblem(secret)).toBeNull();
    expect(whsecProblem('a-plain-secret-of-24-chars')).toBeNull();
    for (const bad of [
      'whsec_',
      'whsec_!!!!',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS',
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw-_',
      'whsec_QUFB',
      `whsec_${'A'.repeat(88)}`,
    ]) {
      expect([bad, whsecProblem(bad)]).toEqual([bad, expect.stringContaining('whsec_')]);
      expect(() => secretKey(bad)).toThrow(/webhook secret unusable/);
    }
    expect(secretKey(secret)).toHaveLength(24);
  });

  it('X-Signature is HMAC-SHA256 hex of the body with the decoded whsec key', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    expect(bodySignature(secret, body)).toBe(createHmac('sha256', key).update(body).digest('hex'));
    expect(bodySignature('a-plain-secret-of-24-chars', body)).toBe(
      createHmac('sha256', 'a-plain-secret-of-24-chars').update(body).digest('hex'),
    );
    expect(bodySignature(secret, `${body} `)).not.toBe(bodySignature(secret, body));
  });

  it('webhook-signature verifies with the standardwebhooks library, and only for the signed id, time and body', () => {
    const now = Math.floor(Date.now() / 1000);
    const headers = eventDeliveryHeaders({
      subscriptionId: 'wh_1',
      eventId: 'evt_1',
      eventTimestampS: now - 60,
      attemptTimestampS: now,
      secret,
      body,
    });
    expect(headers['webhook-signature']).toBe(standardSignature(secret, 'evt_1', now, body));
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_2' })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-timestamp': String(now - 1) })).toThrow();
  });

  it('omits both signatures without a secret but keeps the ids and timestamps', () => {
    const headers = eventDeliveryHeaders({
      subscriptionId: 'wh_1',
      eventId: 'evt_1',
      eventTimestampS: 1,
      attemptTimestampS: 2,
      secret: null,
      body,
    });
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'X-Webhook-ID': 'wh_1',
      'X-Event-ID': 'evt_1',
      'X-Timestamp': '1',
      'webhook-id': 'evt_1',
      'webhook-timestamp': '2',
    });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates; ignores anything else', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs(undefined, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});
