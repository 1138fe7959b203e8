import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { formatMicros } from '@app/common';
import { canonicalJson } from '@app/json-schema';
import { PlatformSigner } from '@app/outbound';
import { PaymentFundings } from '@app/payments';
import { ExecutionsRepository } from '../../../executions.repository';
import { EvidenceKeys } from './evidence-keys';

/**
 * What the platform itself saw of a charged execution: neither side has to upload it. Public (a dispute
 * is readable by anyone), so it names the execution by its transaction only: the request id is the
 * payer's (it reads the output with a payment header rebuilt from public chain data), kept beside the
 * facts (`ExecutionEvidence.requestId`), never in them.
 */
export interface ExecutionFacts {
  transactionId: string;
  capabilityId: string | null;
  status: string | null;
  /**
   * HMAC-SHA256 (hex), under the charge's evidence key (EvidenceKeys: only the parties get it), of
   * the SHA-256 hex of the canonical JSON (sorted keys) of the input the agent was sent, and of the
   * output it answered.
   */
  inputHash: string | null;
  outputHash: string | null;
  agentError: string | null;
  timings: {
    requestedAt: string | null;
    completedAt: string | null;
    executionTimeMs: number | null;
    retryCount: number | null;
  };
  cost: { agentFee: string | null; platformFee: string | null; pricingModel: string | null };
  settlement: { status: string | null; txHash: string | null; network: string | null; payer: string | null };
  chainId: string | null;
}

export interface ExecutionEvidence {
  facts: ExecutionFacts;
  /** The execution the transaction charged, for the platform's use (a resolution marks it refunded): never shown. */
  requestId: string | null;
  /**
   * The platform's signature over the facts, labelled as an attestation so it is never accepted as a
   * call: `t=<unix s>,ed25519=<base64 of sign("agora-attestation.v2.<t>.<transactionId>.<sha256 hex of
   * canonicalJson(facts)>")>`, checked against the key published at GET /api/v1/platform/keys (`keyId`).
   */
  attestation: { keyId: string; signature: string };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const hashOf = (value: Record<string, unknown> | null | undefined) =>
  value === null || value === undefined ? null : sha256(canonicalJson(value));

/** The evidence a dispute carries: the facts of the execution a transaction charged, signed by the platform. */
@Injectable()
export class CollectExecutionEvidence {
  constructor(
    private readonly repo: ExecutionsRepository,
    private readonly payments: PaymentFundings,
    private readonly signer: PlatformSigner,
    private readonly keys: EvidenceKeys,
  ) {}

  async execute(charge: {
    transactionId: string;
    paymentId: string | null;
    agentId: string;
    chargedAt: Date;
  }): Promise<ExecutionEvidence> {
    const [execution, payment] = await Promise.all([
      this.repo.findByCharge(charge),
      charge.paymentId ? this.payments.find(charge.paymentId) : Promise.resolve(null),
    ]);
    const keyed = (digest: string | null) => (digest === null ? null : this.keys.hash(charge.transactionId, digest));
    const facts: ExecutionFacts = {
      transactionId: charge.transactionId,
      capabilityId: execution?.capabilityId ?? null,
      status: execution?.status ?? null,
      // A pruned execution (EXECUTION_PAYLOAD_RETENTION_DAYS) kept the SHA-256 of what it held.
      inputHash: execution ? keyed(execution.payloadPrunedAt ? execution.inputSha256 : hashOf(execution.input)) : null,
      outputHash: execution
        ? keyed(execution.payloadPrunedAt ? execution.outputSha256 : hashOf(execution.output))
        : null,
      agentError: execution?.agentError ?? null,
      timings: {
        requestedAt: execution?.createdAt.toISOString() ?? null,
        completedAt: execution?.completedAt?.toISOString() ?? null,
        executionTimeMs: execution?.executionTimeMs ?? null,
        retryCount: execution?.retryCount ?? null,
      },
      cost: {
        agentFee: execution ? formatMicros(execution.agentFee) : null,
        platformFee: execution ? formatMicros(execution.platformFee) : null,
        pricingModel: execution?.pricingModel ?? null,
      },
      settlement: {
        status: payment?.status ?? null,
        txHash: payment?.txHash ?? null,
        network: payment?.network ?? null,
        payer: payment?.payer ?? null,
      },
      chainId: execution?.chainId ?? null,
    };
    return {
      facts,
      requestId: execution?.id ?? null,
      attestation: {
        keyId: this.signer.keyId,
        signature: this.signer.attestationSignature(charge.transactionId, canonicalJson(facts)),
      },
    };
  }
}
