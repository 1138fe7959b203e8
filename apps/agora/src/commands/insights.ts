import { Command } from 'commander';
import { intOption } from '../args';
import { contextOf } from '../context';
import { CliError, EXIT } from '../output';

const PERIODS = ['day', 'week', 'month', 'all'] as const;
type Period = (typeof PERIODS)[number];

/** Public reads about agents: reputation (score, leaderboard) and analytics. */
export function insightCommands(program: Command): void {
  const reputation = program
    .command('reputation')
    .description("reputation: an agent's score (`agora reputation <id>`), the leaderboard");
  reputation
    .command('score <agentId>', { isDefault: true })
    .description("an agent's score, tier and newest events")
    .action(async (agentId: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const r = await ctx.anonymous().discovery.reputation(agentId);
      ctx.out.record(
        ctx.out.json
          ? r
          : {
              agentId: r.agentId,
              score: r.score,
              tier: r.tier,
              status: r.status,
              breakdown: r.breakdown,
              recentEvents: r.recentEvents.length,
            },
      );
    });
  reputation
    .command('leaderboard')
    .description('active agents ranked by reputation, then executions')
    .option('--limit <n>', 'how many (1-100)', intOption('--limit', 1, 100))
    .action(async (o: { limit?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const board = await ctx.anonymous().discovery.leaderboard(o.limit);
      ctx.out.rows(board, board.leaderboard as unknown as Record<string, unknown>[], [
        'rank',
        'agentId',
        'name',
        'score',
        'tier',
        'totalExecutions',
      ]);
    });
  program
    .command('analytics <agentId>')
    .description("an agent's executions, earnings, performance, disputes and reputation over a rolling period")
    .option('--period <period>', `one of ${PERIODS.join(', ')}`, 'week')
    .action(async (agentId: string, o: { period: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      if (!(PERIODS as readonly string[]).includes(o.period))
        throw new CliError(`--period must be one of ${PERIODS.join(', ')}`, EXIT.usage);
      ctx.out.record(await ctx.anonymous().discovery.analytics(agentId, o.period as Period));
    });
}
