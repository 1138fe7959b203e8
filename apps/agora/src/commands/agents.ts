import { Command } from 'commander';
import { contextOf } from '../context';
import { readJsonFile } from '../args';

export function agentCommands(program: Command): void {
  program
    .command('register')
    .description('register an agent owned by your wallet, paying the 0.10 USDC fee')
    .requiredOption(
      '--file <agent.json>',
      'the registration: name, description, capabilities, endpoints (wallet defaults to yours)',
    )
    .action(async (o: { file: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const sdk = await ctx.signed();
      const agent = await sdk.registerAgent((await readJsonFile(o.file)) as never);
      ctx.out.record(
        ctx.out.json
          ? agent
          : {
              id: agent.id,
              name: agent.name,
              wallet: agent.wallet,
              status: agent.status,
              capabilities: agent.capabilities.map((c) => c.id).join(', '),
              paid: sdk.spending.spent,
            },
        'Agent registered',
      );
    });
  program
    .command('discover')
    .description('find agents by capability, price and reputation')
    .option('--capability <id>')
    .option('--max-price <usdc>')
    .option('--min-reputation <n>', 'minimum reputation score', Number)
    .option('--min-uptime <share>', 'minimum share of health probes answered over 24 h (0-1)', Number)
    .option('--limit <n>', 'how many (1-100)', Number)
    .action(
      async (
        o: { capability?: string; maxPrice?: string; minReputation?: number; minUptime?: number; limit?: number },
        cmd: Command,
      ) => {
        const ctx = contextOf(cmd);
        const found = await ctx.anonymous().discovery.discover(o);
        const rows = found.agents.map((a) => ({
          id: a.id,
          name: a.name,
          reputation: a.reputation_score,
          capabilities: a.capabilities.map((c) => `${c.id} ${c.pricing.basePrice}`).join(', '),
        }));
        ctx.out.rows(found, rows, ['id', 'name', 'reputation', 'capabilities']);
      },
    );
  program
    .command('recommend <query...>')
    .description('agents ranked for a task described in words')
    .option('--limit <n>', 'how many', Number)
    .action(async (query: string[], o: { limit?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const found = await ctx.anonymous().discovery.recommend(query.join(' '), o.limit);
      const rows = found.recommendations.map((r) => ({
        id: r.agent.id,
        name: r.agent.name,
        relevance: r.relevance,
        matched: r.matchedCapabilities.join(', '),
      }));
      ctx.out.rows(found, rows, ['id', 'name', 'relevance', 'matched']);
    });
}
