import { Injectable } from '@nestjs/common';
import { Page } from '@app/common';
import { InvariantStatusEntity } from '../../entities/invariant-status.entity';
import { InvariantCheckRecord, InvariantStatusRepository } from '../../invariant-status.repository';

export interface InvariantHistory {
  /** The last check (null: the worker has not checked yet). */
  current: InvariantStatusEntity | null;
  /** The kept results, newest first: each change of result, and one an hour while it holds. */
  history: InvariantCheckRecord[];
  total: number;
}

/** `GET /admin/invariants`: the scheduled invariant check's current result and a page of its history. */
@Injectable()
export class GetInvariantHistory {
  constructor(private readonly status: InvariantStatusRepository) {}

  async execute(page: Page): Promise<InvariantHistory> {
    const [current, { checks, total }] = await Promise.all([this.status.current(), this.status.history(page)]);
    return { current, history: checks, total };
  }
}
