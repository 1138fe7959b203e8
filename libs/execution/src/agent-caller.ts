import { inSpan, instrumented } from '@app/tracing';
import { Metrics } from '@app/metrics';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { OutboundError, OutboundHttpClient, PlatformSigner } from '@app/outbound';
import { validateValue } from '@app/json-schema';

export type AgentCallResult =
  | { ok: true; output: Record<string, unknown>; timeMs: number; usage: { tokens?: unknown }; cost?: unknown }
  | {
      ok: false;
      status: 'failed' | 'timeout';
      error: string;
      timeMs: number;
      reachedAgent?: boolean;
      refused?: boolean;
      /** The output broke the platform's cap for an input that large (callerFilledCap): not the agent's fault. */
      platformLimit?: boolean;
    };

/**
 * Whether an output over the cap is the caller's doing (resolutions §7): its input's JSON was at least
 * half the output cap, so an agent that answers in kind (an echo, a translation, a formatter) could
 * not have stayed under it. Failed for the caller, free, and no reputation penalty, in every mode.
 */
export function callerFilledCap(input: unknown, cap: number): boolean {
  return Buffer.byteLength(JSON.stringify(input) ?? '') * 2 >= cap;
}

/** What an answer may carry besides its output (usage, cost, whitespace) before the caller stops reading it. */
const RESPONSE_MARGIN_BYTES = 64 * 1024;

/** What an agent running inside a chain is given: the body's `chain`, and headers X-Chain-Token and W3C `traceparent`. */
export interface ChainCallContext {
  chainId: string;
  depth: number;
  remainingBudget: string;
  token: string;
  traceparent: string;
}

/** What the agent is sent: `agentId` names the agent the call is for (its signature covers it too). */
export interface AgentCallPayload {
  agentId: string;
  requestId: string;
  capabilityId: string;
  input: unknown;
}

/**
 * The call to an agent (resolutions §4): POST endpoints.execution with
 * `{agentId, requestId, capabilityId, input, chain?}`, signed by the platform for that agent
 * (`PlatformSigner.callSignature`), through the guarded client.
 * Inside a chain the agent also gets its token in `X-Chain-Token` and the chain's trace in
 * `traceparent` (so agents that use OpenTelemetry join one trace). The agent answers 2xx
 * `{output}`; anything else, output larger than EXECUTION_OUTPUT_MAX_BYTES (its JSON; the answer
 * is not read past the cap and a margin), or output failing outputSchema, is a failure.
 */
@Injectable()
export class AgentCaller {
  constructor(
    private readonly http: OutboundHttpClient,
    private readonly signer: PlatformSigner,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** The compiled outputSchema is cached under the agent id. */
  async call(
    endpoint: string,
    payload: AgentCallPayload,
    outputSchema: Record<string, unknown> | null,
    chain?: ChainCallContext,
  ): Promise<AgentCallResult> {
    // The span is the parent of the HTTP call, whose traceparent the agent receives (undici instrumentation).
    return inSpan(
      'agora.agent.call',
      {
        'agora.agent_id': payload.agentId,
        'agora.capability_id': payload.capabilityId,
        'agora.request_id': payload.requestId,
      },
      async (set) => {
        const seconds = Metrics.timer();
        const result = await this.attempt(endpoint, payload, outputSchema, chain);
        this.metrics.agentCallDuration.observe({ outcome: result.ok ? 'ok' : result.status }, seconds());
        set({ 'agora.outcome': result.ok ? 'ok' : result.status });
        return result;
      },
    );
  }

  private async attempt(
    endpoint: string,
    payload: AgentCallPayload,
    outputSchema: Record<string, unknown> | null,
    chain?: ChainCallContext,
  ): Promise<AgentCallResult> {
    const body = JSON.stringify(
      chain
        ? {
            ...payload,
            chain: {
              chainId: chain.chainId,
              depth: chain.depth,
              remainingBudget: chain.remainingBudget,
              token: chain.token,
            },
          }
        : payload,
    );
    // A duration, not a time of day: the monotonic clock, so a test's FixedClock does not make every run 0 ms.
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const cap = this.config.executionOutputMaxBytes;
    let res;
    try {
      res = await this.http.postJson(endpoint, body, {
        headers: {
          'X-Request-ID': payload.requestId,
          'X-Agora-Signature': this.signer.callSignature(payload.agentId, payload.requestId, body),
          // With the undici instrumentation on, it sends the traceparent of this call's span (in the
          // chain's trace); a second header would reach the agent as "a, b", which no tracer reads.
          ...(chain
            ? { 'X-Chain-Token': chain.token, ...(instrumented('undici') ? {} : { traceparent: chain.traceparent }) }
            : {}),
        },
        timeoutMs: this.config.executionTimeoutMs,
        maxBytes: cap + RESPONSE_MARGIN_BYTES,
      });
    } catch (err) {
      const e = err as OutboundError;
      if (e.kind === 'timeout')
        return {
          ok: false,
          status: 'timeout',
          error: `agent did not answer within ${this.config.executionTimeoutMs} ms`,
          timeMs: elapsed(),
        };
      if (e.kind === 'too_large') {
        return {
          ok: false,
          status: 'failed',
          error: `output exceeds the ${cap}-byte limit (the answer was cut off after ${cap + RESPONSE_MARGIN_BYTES} bytes)`,
          timeMs: elapsed(),
          ...(callerFilledCap(payload.input, cap) ? { platformLimit: true } : {}),
        };
      }
      // The guard refused the address: nothing was sent, so the agent is not penalised for it.
      return {
        ok: false,
        status: 'failed',
        error: `agent unreachable: ${e.message}`,
        timeMs: elapsed(),
        reachedAgent: e.kind !== 'blocked',
      };
    }
    if (res.status < 200 || res.status >= 300) {
      // A 4xx is the agent refusing the request (resolutions §7): failed for the client, no penalty for the agent.
      const refused = res.status >= 400 && res.status < 500;
      return {
        ok: false,
        status: 'failed',
        error: `agent answered ${res.status}: ${res.body.slice(0, 300)}`,
        timeMs: elapsed(),
        ...(refused ? { refused } : {}),
      };
    }
    let parsed: { output?: unknown; usage?: unknown; cost?: unknown };
    try {
      parsed = JSON.parse(res.body) as typeof parsed;
    } catch {
      return { ok: false, status: 'failed', error: 'agent response is not JSON', timeMs: elapsed() };
    }
    const output = parsed?.output;
    if (!output || typeof output !== 'object' || Array.isArray(output)) {
      return { ok: false, status: 'failed', error: 'agent response has no output object', timeMs: elapsed() };
    }
    // What would be stored: the output's JSON (the answer's own text may differ in whitespace and escapes).
    const size = Buffer.byteLength(JSON.stringify(output));
    if (size > cap)
      return {
        ok: false,
        status: 'failed',
        error: `output of ${size} bytes exceeds the ${cap}-byte limit`,
        timeMs: elapsed(),
        ...(callerFilledCap(payload.input, cap) ? { platformLimit: true } : {}),
      };
    const errors = validateValue(payload.agentId, outputSchema, output);
    if (errors.length) {
      return {
        ok: false,
        status: 'failed',
        error: `output does not match outputSchema: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
        timeMs: elapsed(),
      };
    }
    const usage = parsed.usage && typeof parsed.usage === 'object' ? (parsed.usage as { tokens?: unknown }) : {};
    return { ok: true, output: output as Record<string, unknown>, timeMs: elapsed(), usage, cost: parsed.cost };
  }
}
