import { Injectable } from '@nestjs/common';
import { PayerRead } from '@app/auth';
import type { PayerReadProof } from '@app/auth';
import { decodeCursor, ExecutionPage, toPage, windowFor } from '../../executions/execution-page';
import { ExecutionFilter, ExecutionPagesRepository } from '../../executions/execution-pages.repository';

export type PayerExecutionsPage = ExecutionPage & { wallet: string };

/**
 * `GET /payers/:wallet/executions`: a paying wallet's own executions, newest first, by pages of
 * `limit` (1-100) with an opaque cursor, optionally one status or capability; for that wallet
 * only (PayerRead: its console session or its signature).
 */
@Injectable()
export class ListPayerExecutions {
  constructor(
    private readonly auth: PayerRead,
    private readonly repo: ExecutionPagesRepository,
  ) {}

  async execute(
    wallet: string,
    q: ExecutionFilter & { limit: number; cursor?: string },
    proof: PayerReadProof,
  ): Promise<PayerExecutionsPage> {
    await this.auth.verify(wallet, proof);
    const scan = await this.repo.page({ payer: wallet }, q, q.limit + 1, windowFor(q, q.limit), decodeCursor(q.cursor));
    return { wallet: wallet.toLowerCase(), ...toPage(scan, q.limit) };
  }
}
