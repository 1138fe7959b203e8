import { Command } from 'commander';
import type { Agent, UpdateAgentInput } from '@agora/sdk';
import { readJsonFile } from '../args';
import { contextOf } from '../context';
import { CliError, EXIT } from '../output';
import { confirm } from '../prompt';

const shown = (agent: Agent) => ({
  ...agent,
  capabilities: agent.capabilities.map((c) => `${c.id} (${c.pricing.model} ${c.pricing.basePrice})`).join(', '),
});

interface UpdateFlags {
  file?: string;
  name?: string;
  description?: string;
}

/** `agora agent <id>` (a profile), `agent update` and `agent deactivate` (signed by its wallet). */
export function agentCommand(program: Command): void {
  const agent = program.command('agent').description('an agent: its profile (`agora agent <id>`), update, deactivate');
  agent
    .command('show <agentId>', { isDefault: true })
    .description("an agent's profile")
    .action(async (agentId: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const found = await ctx.anonymous().getAgent(agentId);
      ctx.out.record(ctx.out.json ? found : shown(found));
    });
  agent
    .command('update <agentId>')
    .description(
      'change an agent you own (signed by its wallet): fields from --file (name, description, capabilities, endpoints, metadata) and the flags',
    )
    .option('--file <patch.json>', 'the fields to change, as JSON (capabilities and metadata replace the whole value)')
    .option('--name <name>')
    .option('--description <text>')
    .action(async (agentId: string, o: UpdateFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const patch = {
        ...(o.file ? await readJsonFile(o.file) : {}),
        ...(o.name !== undefined ? { name: o.name } : {}),
        ...(o.description !== undefined ? { description: o.description } : {}),
      } as UpdateAgentInput;
      if (Object.keys(patch).length === 0)
        throw new CliError('Nothing to change: pass --file, --name or --description', EXIT.usage);
      const updated = await (await ctx.signed()).updateAgent(agentId, patch);
      ctx.out.record(ctx.out.json ? updated : shown(updated), 'Agent updated');
    });
  agent
    .command('deactivate <agentId>')
    .description(
      'deactivate an agent you own (signed by its wallet): kept, with status inactive, and no longer discovered',
    )
    .option('-y, --yes', 'do not ask')
    .action(async (agentId: string, o: { yes?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      if (!o.yes && !(await confirm(`Deactivate agent ${agentId}?`)))
        throw new CliError('Not confirmed; the agent is unchanged', EXIT.refused);
      ctx.out.record(await (await ctx.signed()).deactivateAgent(agentId), 'Agent deactivated');
    });
}
