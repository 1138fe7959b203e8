import { DataSource } from 'typeorm';
import { startApi, ApiHarness } from '../support/api-harness';

/**
 * Entities and migrations agree: on a migrated database, generating a migration from the
 * entities the API loads yields no statement. Also checks that the migrations revert cleanly.
 */
describe('schema (integration)', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  async function pendingSchemaChanges(ds: DataSource): Promise<string[]> {
    const log = await ds.driver.createSchemaBuilder().log();
    return log.upQueries.map((q) => q.query);
  }

  it('generating a migration from the entities yields nothing', async () => {
    const ds = api.app.get(DataSource);
    // Every table the migrations create has an entity, so none escapes the comparison.
    const tables: { table_name: string }[] = await ds.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations' ORDER BY 1`,
    );
    expect(ds.entityMetadatas.map((m) => m.tableName).sort()).toEqual(tables.map((t) => t.table_name));
    expect(tables.length).toBeGreaterThanOrEqual(11);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });

  it('never synchronizes: the schema comes from migrations only', () => {
    expect(api.app.get(DataSource).options.synchronize).toBe(false);
  });

  it('reverts every migration and applies them again to the same schema', async () => {
    const ds = api.app.get(DataSource);
    const count = ds.migrations.length;
    for (let i = 0; i < count; i++) await ds.undoLastMigration({ transaction: 'each' });
    const tables = await ds.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'typeorm_migrations'`);
    expect(tables).toEqual([]);
    expect(await ds.runMigrations({ transaction: 'each' })).toHaveLength(count);
    expect(await pendingSchemaChanges(ds)).toEqual([]);
  });
});
