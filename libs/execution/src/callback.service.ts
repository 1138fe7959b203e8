import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { queryRows } from '@app/database';
import { OutboundError, OutboundHttpClient } from '@app/outbound';
import { jobId, JobProducer } from '@app/queues';
import { PlatformSigner } from './platform-signer';

const CALLBACK_TIMEOUT_MS = 10_000;
const CALLBACK_MAX_RESPONSE = 64 * 1024;
/** How long a claimed delivery is ours before another worker may try it. */
const CLAIM_MS = 60_000;

export type CallbackOutcome = 'delivered' | 'retry' | 'failed' | 'skipped';

/**
 * Posts a finished execution's result to its callbackUrl/webhookUrl: `{requestId, status, output}`
 * (output once settled; `error` for failures), signed by the platform, through the guarded client.
 * Attempts follow WEBHOOK_RETRY_DELAYS_MS with +-10% jitter, honouring Retry-After; a 2xx within
 * 10 s is success; after the fifth failure the callback is `failed`. The schedule lives in the
 * execution row, so a lost job is re-enqueued by the sweeper.
 */
@Injectable()
export class CallbackService {
  private readonly logger = new Logger(CallbackService.name);

  constructor(
    private readonly http: OutboundHttpClient,
    private readonly signer: PlatformSigner,
    private readonly jobs: JobProducer,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Called once an execution is final: its callback becomes due now. */
  async schedule(executionId: string): Promise<void> {
    const [row] = await queryRows<{ id: string }>(
      this.dataSource.manager,
      `UPDATE executions SET callback_status = 'pending', callback_next_at = $2
        WHERE id = $1 AND callback_url IS NOT NULL AND callback_status IS NULL RETURNING id`,
      [executionId, this.clock.now()],
    );
    if (row) await this.enqueue(executionId, 0);
  }

  async deliver(executionId: string): Promise<CallbackOutcome> {
    const now = this.clock.now();
    const [e] = await queryRows<{ id: string; url: string; status: string; settlement: string | null; output: unknown; error: string | null; attempts: number }>(
      this.dataSource.manager,
      `UPDATE executions SET callback_next_at = $3
        WHERE id = $1 AND callback_status = 'pending' AND callback_next_at <= $2
        RETURNING id, callback_url AS url, status, settlement_status AS settlement, output, agent_error AS error, callback_attempts AS attempts`,
      [executionId, now, new Date(now.getTime() + CLAIM_MS)],
    );
    if (!e) return 'skipped';
    const body = JSON.stringify({
      requestId: e.id,
      status: e.status,
      ...(e.status === 'completed' && e.settlement === 'settled' ? { output: e.output } : {}),
      ...(e.error ? { error: e.error } : {}),
    });
    let retryAfterMs: number | null = null;
    let ok = false;
    let reason = '';
    try {
      const res = await this.http.postJson(e.url, body, {
        headers: { 'X-Request-ID': e.id, 'X-Agora-Signature': this.signer.signatureHeader(e.id, body) },
        timeoutMs: CALLBACK_TIMEOUT_MS,
        maxBytes: CALLBACK_MAX_RESPONSE,
      });
      ok = res.status >= 200 && res.status < 300;
      reason = `answered ${res.status}`;
      const retryAfter = Number(res.headers['retry-after']);
      if (!ok && Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = retryAfter * 1000;
    } catch (err) {
      reason = err instanceof OutboundError ? `${err.kind}: ${err.message}` : String(err);
    }
    const attempts = e.attempts + 1;
    if (ok) {
      await this.dataSource.query(`UPDATE executions SET callback_status = 'delivered', callback_attempts = $2, callback_next_at = NULL WHERE id = $1`, [e.id, attempts]);
      return 'delivered';
    }
    const delays = this.config.webhookRetryDelaysMs;
    if (attempts >= delays.length) {
      await this.dataSource.query(`UPDATE executions SET callback_status = 'failed', callback_attempts = $2, callback_next_at = NULL WHERE id = $1`, [e.id, attempts]);
      this.logger.warn({ executionId: e.id, attempts, reason }, 'callback failed for good');
      return 'failed';
    }
    const base = delays[attempts];
    const delay = Math.max(retryAfterMs ?? 0, Math.round(base * (0.9 + Math.random() * 0.2)));
    await this.dataSource.query(`UPDATE executions SET callback_attempts = $2, callback_next_at = $3 WHERE id = $1`, [e.id, attempts, new Date(now.getTime() + delay)]);
    await this.enqueue(e.id, attempts, delay);
    return 'retry';
  }

  /** Callbacks due now (for the sweeper). */
  async due(limit = 200): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `SELECT id FROM executions WHERE callback_status = 'pending' AND callback_next_at <= $1 ORDER BY callback_next_at LIMIT $2`,
      [this.clock.now(), limit],
    );
    return rows.map((r) => r.id);
  }

  private async enqueue(executionId: string, attempt: number, delay = 0): Promise<void> {
    await this.jobs.wake('execution.callback', { executionId }, { jobId: jobId('execution.callback', executionId, attempt), delay, attempts: 1 });
  }
}
