import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Unfinished } from '../unfinished';
import { ChainTxsRepository } from './chain-txs.repository';

/** The chain transactions the platform signed and the chain has not decided on yet, oldest first (operator reads). */
@Injectable()
export class OpenChainTxs {
  private readonly repo: ChainTxsRepository;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.repo = new ChainTxsRepository(dataSource);
  }

  oldest(limit: number): Promise<Unfinished> {
    return this.repo.oldestOpen(limit);
  }
}
