import { DataSourceOptions, MixedList, EntitySchema } from 'typeorm';
import { MIGRATIONS } from './migrations';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityList = MixedList<Function | string | EntitySchema>;

/**
 * One definition of how we talk to Postgres, shared by the api, the worker, the CLI and
 * the tests. Schema changes go through migrations only: synchronize is always off.
 */
export function buildDataSourceOptions(opts: {
  url: string;
  entities?: EntityList;
  poolSize?: number;
  applicationName?: string;
}): DataSourceOptions {
  return {
    type: 'postgres',
    url: opts.url,
    entities: opts.entities ?? [],
    migrations: MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
    synchronize: false,
    migrationsRun: false,
    logging: false,
    applicationName: opts.applicationName ?? 'agora',
    // pipeline: statements issued together on one connection (Promise.all inside a transaction) go out
    // in one round trip instead of one each (node-postgres pipeline mode).
    extra: { max: opts.poolSize ?? 20, connectionTimeoutMillis: 5_000, pipeline: true },
  };
}
