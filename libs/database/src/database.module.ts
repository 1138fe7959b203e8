import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '@app/config';
import { buildDataSourceOptions } from './data-source.options';
import { TransactionRunner } from './transaction.runner';

/** Root TypeORM connection. Domain modules add their entities with TypeOrmModule.forFeature. */
@Module({})
export class DatabaseModule {
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
      providers: [TransactionRunner],
      exports: [TransactionRunner],
    };
  }
}
