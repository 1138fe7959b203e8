import { randomBytes } from 'node:crypto';
import { eventDeliveryHeaders } from '@app/webhooks';
import { forwardHeaders } from '../../apps/agora/src/forward-signature';

describe('agora listen: forwarded event headers', () => {
  it('are the headers a webhook delivery carries, for a whsec_, a plain and no secret', () => {
    for (const secret of [`whsec_${randomBytes(32).toString('base64')}`, 'plain-secret-with-enough-length-42', null]) {
      const h = {
        subscriptionId: 'agora-listen',
        eventId: 'evt_abcdefghijklmnop',
        eventTimestampS: 1_764_200_000,
        attemptTimestampS: 1_764_200_042,
        secret,
        body: '{"id":"evt_x","data":{"n":1}}',
      };
      expect(forwardHeaders(h)).toEqual(eventDeliveryHeaders(h));
    }
  });
});
