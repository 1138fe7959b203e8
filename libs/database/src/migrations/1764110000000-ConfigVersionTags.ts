import { MigrationInterface, QueryRunner } from 'typeorm';

const WHEN_BEFORE = `OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.chain_settings IS DISTINCT FROM NEW.chain_settings`;

/**
 * An execute target now carries the agent's own tags (metadata.tags: its x402 listings and the
 * `resource.tags` of its 402s), so a change to them moves `config_version` too, and every api
 * process drops the targets and listings it kept.
 */
export class ConfigVersionTags1764110000000 implements MigrationInterface {
  name = 'ConfigVersionTags1764110000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (${WHEN_BEFORE} OR (OLD.metadata -> 'tags') IS DISTINCT FROM (NEW.metadata -> 'tags'))
      EXECUTE FUNCTION agents_config_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (${WHEN_BEFORE}) EXECUTE FUNCTION agents_config_changed()`);
  }
}
