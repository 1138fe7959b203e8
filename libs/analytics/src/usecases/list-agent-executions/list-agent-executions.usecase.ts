import { Injectable } from '@nestjs/common';
import { decodeCursor, ExecutionPage, toPage, windowFor } from '../../executions/execution-page';
import { ExecutionFilter, ExecutionPagesRepository } from '../../executions/execution-pages.repository';

/**
 * `GET /agents/:id/executions`: an agent's executions (failed ones too), newest first, by pages of
 * `limit` (1-100) with an opaque cursor, optionally one status or capability. The transport checks
 * the caller reads as that agent (its wallet's signature or console session).
 */
@Injectable()
export class ListAgentExecutions {
  constructor(private readonly repo: ExecutionPagesRepository) {}

  async execute(agentId: string, q: ExecutionFilter & { limit: number; cursor?: string }): Promise<ExecutionPage> {
    const scan = await this.repo.page({ agentId }, q, q.limit + 1, windowFor(q, q.limit), decodeCursor(q.cursor));
    return toPage(scan, q.limit);
  }
}
