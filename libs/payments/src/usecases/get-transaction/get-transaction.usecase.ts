import { Injectable } from '@nestjs/common';
import { NotFoundException } from '@app/common';
import { TransactionEntity } from '../../entities/transaction.entity';
import { TransactionsRepository } from '../../repositories/transactions.repository';

/** `GET /payments/tx/:txId`: one charged transaction (TRANSACTION_NOT_FOUND when there is none). */
@Injectable()
export class GetTransaction {
  constructor(private readonly transactions: TransactionsRepository) {}

  async execute(id: string): Promise<TransactionEntity> {
    const tx = await this.transactions.findById(id);
    if (!tx) throw new NotFoundException('TRANSACTION_NOT_FOUND', 'Transaction', id);
    return tx;
  }
}
