import { Command } from 'commander';
import { intOption } from '../args';
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
      ctx.out.record(
        await (await ctx.signed()).payments.withdraw(agentId, amount, destination),
        'Withdrawal requested',
      );
    });
  program
    .command('withdrawals <agentId>')
    .description("an agent's withdrawals, newest first, with a summary")
    .option('--limit <n>', 'how many (1-100)', intOption('--limit', 1, 100))
    .option('--offset <n>', 'skip', intOption('--offset', 0, 1_000_000))
    .action(async (agentId: string, o: { limit?: number; offset?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const list = await ctx.anonymous().payments.withdrawals(agentId, o);
      const rows = list.withdrawals as unknown as Record<string, unknown>[];
      ctx.out.rows(list, rows, ['id', 'amount', 'fee', 'net_amount', 'status', 'destination_wallet', 'created_at']);
    });
  program
    .command('withdrawal <withdrawalId>')
    .description("one withdrawal's status (tx_hash once sent)")
    .action(async (id: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await ctx.anonymous().payments.withdrawal(id));
    });
  program
    .command('history <agentId>')
    .description("an agent's transactions (signed by its wallet)")
    .option('--limit <n>', 'how many', Number)
    .option('--offset <n>', 'skip', Number)
    .action(async (agentId: string, o: { limit?: number; offset?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const list = await (await ctx.signed()).payments.history(agentId, o);
      ctx.out.rows(list, list as unknown as Record<string, unknown>[], [
        'id',
        'capability_id',
        'amount',
        'agent_earnings',
        'status',
        'created_at',
      ]);
    });
}
