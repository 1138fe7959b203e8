import { Command } from 'commander';
import { contextOf } from '../context';

export function moneyCommands(program: Command): void {
  program
    .command('balance <agentId>')
    .description("an agent's balances")
    .action(async (agentId: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await ctx.anonymous().payments.balance(agentId));
    });
  program
    .command('withdraw <agentId> <amount> <destinationWallet>')
    .description("withdraw an agent's available balance (signed by its wallet; minimum 1.00, fee 0.10)")
    .action(async (agentId: string, amount: string, destination: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await (await ctx.signed()).payments.withdraw(agentId, amount, destination), 'Withdrawal requested');
    });
  program
    .command('history <agentId>')
    .description("an agent's transactions (signed by its wallet)")
    .option('--limit <n>', 'how many', Number)
    .option('--offset <n>', 'skip', Number)
    .action(async (agentId: string, o: { limit?: number; offset?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const list = await (await ctx.signed()).payments.history(agentId, o);
      ctx.out.rows(list, list as unknown as Record<string, unknown>[], ['id', 'capability_id', 'amount', 'agent_earnings', 'status', 'created_at']);
    });
}
