import { Injectable } from '@nestjs/common';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { formatMicros, ValidationException } from '@app/common';
import { PayerExecutionRow, PayerExecutionsRepository } from '../../payer/payer-executions.repository';

export interface PayerExecution {
  requestId: string;
  agentId: string;
  agentName: string | null;
  capabilityId: string;
  status: string;
  settlementStatus: string | null;
  /** USDC: platform fee + agent fee (what a completed run is charged; a failed one is not). */
  total: string;
  transactionId: string | null;
  hasReceipt: boolean;
  createdAt: string;
  completedAt: string | null;
}

/** `next`: the cursor of the page after this one (null on the last). */
export interface PayerExecutionsPage {
  wallet: string;
  executions: PayerExecution[];
  next: string | null;
}

/**
 * `GET /payers/:wallet/executions`: a paying wallet's own executions, newest first, by pages of
 * `limit` (1-100) with an opaque cursor; for that wallet only (PayerRead: its console session or
 * its signature).
 */
@Injectable()
export class ListPayerExecutions {
  constructor(
    private readonly auth: PayerRead,
    private readonly repo: PayerExecutionsRepository,
  ) {}

  async execute(
    wallet: string,
    q: { limit: number; cursor?: string },
    proof: PayerReadProof,
  ): Promise<PayerExecutionsPage> {
    await this.auth.verify(wallet, proof);
    const before = q.cursor === undefined ? null : decode(q.cursor);
    const rows = await this.repo.page(wallet, q.limit + 1, before);
    const page = rows.slice(0, q.limit);
    const last = page.at(-1);
    return {
      wallet: wallet.toLowerCase(),
      executions: page.map(view),
      next: rows.length > q.limit && last ? encode(last) : null,
    };
  }
}

const encode = (r: PayerExecutionRow) =>
  Buffer.from(JSON.stringify([new Date(r.createdAt).toISOString(), r.requestId])).toString('base64url');

function decode(cursor: string): { at: Date; id: string } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [string, string];
    const t = new Date(at);
    if (typeof id === 'string' && id.length <= 40 && Number.isFinite(t.getTime())) return { at: t, id };
  } catch {
    /* refused below */
  }
  throw new ValidationException([{ field: 'cursor', messages: ['cursor is not one this API gave'] }]);
}

function view(r: PayerExecutionRow): PayerExecution {
  return {
    requestId: r.requestId,
    agentId: r.agentId,
    agentName: r.agentName,
    capabilityId: r.capabilityId,
    status: r.status,
    settlementStatus: r.settlementStatus,
    total: formatMicros(BigInt(r.agentFee) + BigInt(r.platformFee)),
    transactionId: r.transactionId,
    hasReceipt: r.hasReceipt,
    createdAt: new Date(r.createdAt).toISOString(),
    completedAt: r.completedAt ? new Date(r.completedAt).toISOString() : null,
  };
}
