#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { agentCommand } from './commands/agent';
import { agentCommands } from './commands/agents';
import { chainCommands } from './commands/chains';
import { configCommands } from './commands/config';
import { disputeCommands } from './commands/disputes';
import { executeCommands } from './commands/execute';
import { sessionCommands } from './commands/session';
import { initCommand } from './commands/init';
import { insightCommands } from './commands/insights';
import { listenCommand } from './commands/listen';
import { moneyCommands } from './commands/money';
import { walletCommands } from './commands/wallet';
import { webhookCommands } from './commands/webhooks';
import { addGlobalOptions } from './context';
import { EXIT, report } from './output';

/**
 * `agora`: the marketplace from a terminal, through the SDK only. Tables by default, `--json` on
 * every command; exit codes: 0 ok, 1 the API refused, 2 usage, 3 API unreachable, 4 wallet or
 * password, 5 refused by a spend cap or not confirmed.
 */
export function buildProgram(): Command {
  const program = addGlobalOptions(new Command('agora'))
    .description('agora agent marketplace: wallets, agents, paid executions, balances, webhooks, disputes, events')
    .version('0.1.0')
    .exitOverride()
    .showHelpAfterError();
  initCommand(program);
  configCommands(program);
  walletCommands(program);
  agentCommands(program);
  agentCommand(program);
  executeCommands(program);
  sessionCommands(program);
  chainCommands(program);
  moneyCommands(program);
  insightCommands(program);
  webhookCommands(program);
  listenCommand(program);
  disputeCommands(program);
  return program;
}

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return report(err, argv.includes('--json'));
  }
}

main(process.argv).then((code) => {
  process.exitCode = code;
});
