import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `agents.config_version`: bumped by triggers whenever something an execution reads of the agent
 * changes (its status, name, endpoints or reputation score, or any of its capabilities), and not
 * by the execution counter every charge updates. The api keeps the agent and capability of an
 * execute target in memory and checks this one number in the round trip it makes anyway, so a
 * change is seen by the next request, from whichever process made it.
 */
export class AgentConfigVersion1763910000000 implements MigrationInterface {
  name = 'AgentConfigVersion1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE agents ADD COLUMN config_version bigint NOT NULL DEFAULT 0`);
    await q.query(`CREATE FUNCTION agents_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.config_version := OLD.config_version + 1;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER tr_agents_config_version BEFORE UPDATE ON agents FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.name IS DISTINCT FROM NEW.name OR OLD.endpoints IS DISTINCT FROM NEW.endpoints
            OR OLD.reputation_score IS DISTINCT FROM NEW.reputation_score)
      EXECUTE FUNCTION agents_config_changed()`);
    await q.query(`CREATE FUNCTION agent_capabilities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE agents SET config_version = config_version + 1 WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.agent_id ELSE NEW.agent_id END);
        IF TG_OP = 'UPDATE' AND OLD.agent_id IS DISTINCT FROM NEW.agent_id THEN
          UPDATE agents SET config_version = config_version + 1 WHERE id = OLD.agent_id;
        END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE TRIGGER tr_agent_capabilities_config_version AFTER INSERT OR UPDATE OR DELETE ON agent_capabilities FOR EACH ROW
      EXECUTE FUNCTION agent_capabilities_changed()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER tr_agent_capabilities_config_version ON agent_capabilities`);
    await q.query(`DROP FUNCTION agent_capabilities_changed()`);
    await q.query(`DROP TRIGGER tr_agents_config_version ON agents`);
    await q.query(`DROP FUNCTION agents_config_changed()`);
    await q.query(`ALTER TABLE agents DROP COLUMN config_version`);
  }
}
