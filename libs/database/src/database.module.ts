import { DynamicModule, Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppConfig } from '@app/config';
import { buildDataSourceOptions } from './data-source.options';
import { TransactionRunner } from './transaction.runner';
import { ReplicaReads } from './replica-reads';
import { keepConnectionErrorsHandled } from './connection-errors';
import { LeaseHeartbeat } from './lease-heartbeat';

/** Root TypeORM connection. Domain modules add their entities with TypeOrmModule.forFeature. */
@Module({})
export class DatabaseModule implements OnModuleInit {
  constructor(private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    keepConnectionErrorsHandled((this.dataSource.driver as PostgresDriver).master as Pool);
  }

  static forRoot(applicationName: string): DynamicModule {
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions({ url: config.databaseUrl, poolSize: config.databasePoolSize, applicationName }),
            autoLoadEntities: true,
          }),
        }),
      ],
      providers: [TransactionRunner, ReplicaReads, LeaseHeartbeat],
      exports: [TransactionRunner, ReplicaReads, LeaseHeartbeat],
    };
  }
}
