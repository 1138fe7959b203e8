import { Command } from 'commander';
import { formatMicros, toMicros } from '@agora/sdk';
import { parseObject, parsePayment } from '../args';
import { contextOf } from '../context';
import { cliEnvironment } from '../environment';
import { CliError, EXIT } from '../output';
import { confirm } from '../prompt';
import { progress } from '../spinner';

interface ExecuteFlags {
  input: string;
  async?: boolean;
  idempotencyKey?: string;
  yes?: boolean;
  confirmAbove: string;
}

export function executeCommands(program: Command): void {
  program
    .command('execute <agentId> <capabilityId>')
    .description("run an agent's capability, paying its price with x402 from your wallet")
    .requiredOption('--input <json>', 'the input, a JSON object')
    .option('--async', 'run it in the background and wait for it')
    .option('--idempotency-key <key>')
    .option(
      '--confirm-above <usdc>',
      'ask before paying more than this (AGORA_CONFIRM_ABOVE)',
      cliEnvironment().confirmAbove ?? '0.10',
    )
    .option('-y, --yes', 'do not ask, whatever the price')
    .action(async (agentId: string, capabilityId: string, o: ExecuteFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const input = parseObject(o.input, '--input');
      const agent = await ctx.anonymous().getAgent(agentId);
      const capability = agent.capabilities.find((c) => c.id === capabilityId);
      if (!capability) throw new CliError(`Agent ${agentId} has no capability ${capabilityId}`, EXIT.usage);
      // What the call may cost at most: the fixed price, or the capability's maxPrice; plus the platform fee.
      const price = toMicros(capability.pricing.maxPrice ?? capability.pricing.basePrice) + 1_000n;
      if (
        price > toMicros(o.confirmAbove) &&
        !o.yes &&
        !(await confirm(`This call may cost up to ${formatMicros(price)} USDC. Pay?`))
      ) {
        throw new CliError('Not confirmed; nothing was paid', EXIT.refused);
      }
      const sdk = await ctx.signed();
      const spinner = o.async && !ctx.out.json && process.stderr.isTTY ? progress('waiting for the run') : null;
      try {
        // Never more than the price shown (and confirmed): a price raised meanwhile is refused, not paid.
        const result = await sdk.execute({
          targetAgentId: agentId,
          capabilityId,
          input,
          async: o.async,
          idempotencyKey: o.idempotencyKey,
          maxPayment: price,
        });
        spinner?.success(`run ${result.status}`);
        const { payment, ...shown } = result;
        ctx.out.record(
          ctx.out.json
            ? { ...shown, payment }
            : {
                requestId: result.requestId,
                status: result.status,
                output: result.output,
                cost: result.cost,
                paid: result.paid,
                transactionId: result.transactionId,
              },
        );
      } catch (err) {
        spinner?.error('the run failed');
        throw err;
      }
    });
  program
    .command('status <requestId>')
    .description(
      "an execution's status (its output to its payer: --payment, the header that paid, which `execute --json` prints; or --signed)",
    )
    .option('--payment <name:value>', 'the payment header that paid, as NAME:VALUE')
    .option('--signed', "read as the payer: the keystore's wallet signs the payer's read message (no header needed)")
    .action(async (requestId: string, o: { payment?: string; signed?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const payment = parsePayment(o.payment);
      const client = o.signed && !payment ? await ctx.signed() : ctx.anonymous();
      const execution = await client.getExecution(requestId, payment ?? undefined);
      ctx.out.record(execution);
    });
}
