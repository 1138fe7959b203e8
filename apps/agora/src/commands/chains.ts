import { Command, Option } from 'commander';
import { intOption, parseObject } from '../args';
import { contextOf } from '../context';

interface BudgetFlags {
  input: string;
  depth?: number;
  subAgents: boolean;
}

/** Execution chains: one chain's status and tree, its cost, and what a chain would cost (budget-check). */
export function chainCommands(program: Command): void {
  const chains = program.command('chains').description('execution chains: get, cost, budget-check');
  chains
    .command('get <chainId>')
    .description("a chain's status, totals and trace tree (by chain id, root requestId or root transactionId)")
    .option('--signed', "as the payer: the keystore's wallet, which paid for the chain, signs (shows every node id)")
    .option('--chain-token <token>', "a chain token (shows its holder's subtree)")
    // Before 1.2.0 the header that paid showed every node id; it can be rebuilt from chain data, so it reads as --signed.
    .addOption(new Option('--payment <name:value>', 'deprecated since 1.2.0: use --signed').hideHelp())
    .action(async (chainId: string, o: { signed?: boolean; payment?: string; chainToken?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      if (o.payment !== undefined) ctx.out.note('--payment is deprecated since 1.2.0 and reads as --signed');
      const signed = o.signed || o.payment !== undefined;
      const client = signed ? await ctx.signed() : ctx.anonymous();
      const chain = await client.discovery.chain(chainId, { asPayer: signed, chainToken: o.chainToken });
      ctx.out.record(chain);
    });
  chains
    .command('cost <chainId>')
    .description("a chain's cost: platform fees, agent fees and cuts, by agent and by depth")
    .action(async (chainId: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await ctx.anonymous().discovery.chainCost(chainId));
    });
  chains
    .command('budget-check <agentId> <capabilityId>')
    .description('what a chain rooted at this call may cost, and a budget for it (free)')
    .requiredOption('--input <json>', 'the input, a JSON object')
    .option('--depth <n>', 'estimated depth of sub-calls (1-6)', intOption('--depth', 1, 6))
    .option('--no-sub-agents', 'leave out what sub-agents may cost')
    .action(async (agentId: string, capabilityId: string, o: BudgetFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const input = parseObject(o.input, '--input');
      const check = await ctx.anonymous().discovery.budgetCheck({
        targetAgentId: agentId,
        capabilityId,
        input,
        estimatedDepth: o.depth,
        includeSubAgentCosts: o.subAgents,
      });
      ctx.out.record(check);
    });
}
