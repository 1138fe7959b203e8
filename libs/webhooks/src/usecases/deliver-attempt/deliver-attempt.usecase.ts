import { Metrics } from '@app/metrics';
import { inSpan, linksTo } from '@app/tracing';
import { Injectable, Logger } from '@nestjs/common';
import { Clock, newId } from '@app/common';
import { AppConfig } from '@app/config';
import { TransactionRunner } from '@app/database';
import { OutboundError, OutboundHttpClient, PlatformSigner } from '@app/outbound';
import { CapGate } from '@app/queues';
import { CallbackOutputs } from '../../callback-outputs';
import { DELIVERY_ATTEMPTS, DeliveryOutcome, DeliveryService, retryAfterMs } from '../../delivery.service';
import { DeliveryTurns } from '../../delivery-turns';
import { ClaimedDelivery, WebhookDeliveriesRepository } from '../../webhook-deliveries.repository';
import { WebhookSubscriptionsRepository } from '../../webhook-subscriptions.repository';
import { eventDeliveryHeaders } from '../../webhook-signature';

const MAX_RESPONSE_BYTES = 64 * 1024;

interface Target {
  url: string;
  headers: Record<string, string>;
}

/**
 * One delivery attempt (the `webhook.deliver` job): claims its row, posts the stored body (a
 * completed execution's callback: built from its stored output, not copied) through the guarded
 * client (2xx within WEBHOOK_TIMEOUT_MS is success), records the answer, and on failure inserts the
 * next attempt on WEBHOOK_RETRY_DELAYS_MS (+-10% jitter, at least Retry-After) in the same
 * transaction. A 410, or the fifth failure, marks the subscription `failed` and delivery stops. In
 * the worker, an attempt takes its destination host's turn (`gate`, `DeliveryTurns`): one that must
 * wait goes back to `pending`, its job delayed until its turn.
 */
@Injectable()
export class DeliverAttempt {
  private readonly logger = new Logger('DeliveryService');

  constructor(
    private readonly deliveries: WebhookDeliveriesRepository,
    private readonly subscriptions: WebhookSubscriptionsRepository,
    private readonly delivery: DeliveryService,
    private readonly http: OutboundHttpClient,
    private readonly signer: PlatformSigner,
    private readonly tx: TransactionRunner,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly outputs: CallbackOutputs,
    private readonly turns: DeliveryTurns,
  ) {}

  /** One attempt. Returns what happened; throws only when Postgres fails (the queue retries). */
  async execute(id: string, gate?: CapGate): Promise<DeliveryOutcome> {
    const outcome = await this.attempt(id, gate);
    if (outcome !== 'skipped' && outcome !== 'deferred') this.metrics.webhookDeliveries.inc({ outcome });
    return outcome;
  }

  private async attempt(id: string, gate?: CapGate): Promise<DeliveryOutcome> {
    const now = this.clock.now();
    const until = new Date(now.getTime() + this.turns.holdMs());
    const d = await this.deliveries.claim(id, now, until);
    if (!d) {
      if (gate) await this.turns.skip(gate, id);
      return 'skipped';
    }
    const pass = gate ? await this.turns.enter(gate, d, until) : null;
    if (gate && !pass) return 'deferred';
    // Linked to what caused it (the execution's charge, a withdrawal's job): the trace the row kept.
    const attributes = {
      'agora.delivery_id': d.id,
      'agora.delivery_kind': d.kind,
      'agora.event_type': d.eventType ?? '',
      'agora.attempt': d.attempt,
    };
    try {
      return await inSpan('agora.webhook.deliver', attributes, () => this.send(d, now), {
        links: linksTo([d.traceparent]),
      });
    } finally {
      await pass?.leave();
    }
  }

  private async send(d: ClaimedDelivery, now: Date): Promise<DeliveryOutcome> {
    const body = d.body ?? (await this.completedBody(d.executionId!));
    if (body === null) {
      await this.deliveries.record(d.id, 'cancelled', { error: 'the execution output is no longer stored' });
      return 'cancelled';
    }
    const target = await this.target(d, body, Math.floor(now.getTime() / 1000));
    if (!target) {
      await this.deliveries.record(d.id, 'cancelled', { error: 'subscription is no longer active' });
      return 'cancelled';
    }
    const started = performance.now(); // a latency (duration_ms): monotonic, no test clock or clock step moves it
    let status: number | null = null;
    let answer: string | null = null;
    let error: string | null = null;
    let wait: number | null = null;
    try {
      const res = await this.http.postJson(target.url, body, {
        headers: target.headers,
        timeoutMs: this.config.webhookTimeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
      });
      status = res.status;
      answer = responseExcerpt(res.body);
      if (res.status >= 200 && res.status < 300) {
        await this.deliveries.record(d.id, 'succeeded', {
          responseStatus: status,
          responseBody: answer,
          durationMs: Math.round(performance.now() - started),
        });
        return 'succeeded';
      }
      error = `answered ${res.status}`;
      wait = retryAfterMs(res.headers['retry-after'], this.clock.nowMs());
    } catch (err) {
      error = err instanceof OutboundError ? `${err.kind}: ${err.message}` : String((err as Error).message ?? err);
    }
    return this.failed(
      d,
      {
        responseStatus: status,
        responseBody: answer,
        durationMs: Math.round(performance.now() - started),
        error: error.slice(0, 500),
      },
      wait,
    );
  }

  /** A completed execution's callback body, from its stored output (null once the output is gone). */
  private async completedBody(executionId: string): Promise<string | null> {
    const output = await this.outputs.read(executionId);
    return output === null ? null : JSON.stringify({ requestId: executionId, status: 'completed', output });
  }

  /** Where and how to send: the subscription's URL and signed headers, or the callback's platform signature. */
  private async target(d: ClaimedDelivery, body: string, nowS: number): Promise<Target | null> {
    if (d.kind === 'callback') {
      return {
        url: d.url,
        headers: {
          'Content-Type': 'application/json',
          'X-Request-ID': d.executionId!,
          'X-Agora-Signature': this.signer.callbackSignature(d.executionId!, body, nowS),
        },
      };
    }
    const s = await this.subscriptions.deliveryTarget(d.subscriptionId!, d.eventId!);
    if (!s || s.status === 'deleted' || (s.status === 'failed' && !d.manual)) return null;
    const headers = eventDeliveryHeaders({
      subscriptionId: d.subscriptionId!,
      eventId: d.eventId!,
      eventTimestampS: Math.floor(new Date(s.createdAt).getTime() / 1000),
      attemptTimestampS: nowS,
      secret: s.secret,
      body,
    });
    return { url: s.url, headers };
  }

  private async failed(
    d: ClaimedDelivery,
    result: { responseStatus: number | null; responseBody: string | null; durationMs: number; error: string },
    retryAfter: number | null,
  ): Promise<DeliveryOutcome> {
    const gone = result.responseStatus === 410;
    const last = d.manual || gone || d.attempt >= DELIVERY_ATTEMPTS;
    const delays = this.config.webhookRetryDelaysMs;
    // Retry-After is honoured up to the schedule's last delay: a receiver cannot push an attempt past
    // the five-attempt rule (a huge value made an invalid date and a row that was redelivered forever).
    const waitAsked = Math.min(retryAfter ?? 0, delays[delays.length - 1]);
    const delay = last ? 0 : Math.max(waitAsked, Math.round(delays[d.attempt] * (0.9 + Math.random() * 0.2)));
    const next = await this.tx.run(async (m) => {
      if (!(await this.deliveries.record(d.id, 'failed', result, m))) return null;
      if (last) {
        if (d.kind === 'webhook' && !d.manual) {
          await this.subscriptions.markFailed(
            m,
            d.subscriptionId!,
            gone ? 'the endpoint answered 410 Gone' : `${DELIVERY_ATTEMPTS} failed delivery attempts`,
            this.clock.now(),
          );
        }
        return null;
      }
      return this.deliveries.insertNextAttempt(m, d.id, newId('dlv'), new Date(this.clock.nowMs() + delay));
    });
    if (next) await this.delivery.wake(next, delay);
    if (last) {
      const what = {
        event: 'delivery.failed',
        deliveryId: d.id,
        kind: d.kind,
        eventType: d.eventType,
        subscriptionId: d.subscriptionId,
        attempt: d.attempt,
        error: result.error,
      };
      this.logger.warn(what, 'delivery.failed');
    }
    return last ? 'failed' : 'retry';
  }
}

/**
 * What the receiver answered, as kept for the delivery log: its first 2,048 bytes of UTF-8 (a
 * character cut at the end becomes U+FFFD), NUL replaced by U+FFFD (text cannot hold it).
 */
export function responseExcerpt(body: string): string {
  return Buffer.from(body, 'utf8').subarray(0, 2_048).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
