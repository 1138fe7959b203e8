import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { formatMicros, SessionCall, toMicros } from '@agora/sdk';
import { intOption, parseObject } from '../args';
import { contextOf } from '../context';
import { cliEnvironment } from '../environment';
import { CliError, EXIT, FailedWith } from '../output';
import { confirm } from '../prompt';

interface SessionFlags {
  budget: string;
  maxDepth?: number;
  calls?: string;
  yes?: boolean;
  confirmAbove: string;
}

/** Each call as `{targetAgentId, capabilityId, input}`: from --calls (a JSON array), else one JSON object per stdin line. */
async function* callsOf(o: SessionFlags): AsyncGenerator<SessionCall> {
  if (o.calls !== undefined) {
    let list: unknown;
    try {
      list = JSON.parse(o.calls);
    } catch {
      throw new CliError('--calls must be a JSON array of {targetAgentId, capabilityId, input}', EXIT.usage);
    }
    if (!Array.isArray(list)) throw new CliError('--calls must be a JSON array', EXIT.usage);
    for (const item of list) yield asCall(item);
    return;
  }
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity }))
    if (line.trim()) yield asCall(parseObject(line, 'a call line'));
}

function asCall(v: unknown): SessionCall {
  const c = v as Partial<SessionCall> | null;
  if (!c || typeof c.targetAgentId !== 'string' || typeof c.capabilityId !== 'string' || typeof c.input !== 'object')
    throw new CliError('each call needs targetAgentId, capabilityId and input (an object)', EXIT.usage);
  return { targetAgentId: c.targetAgentId, capabilityId: c.capabilityId, input: c.input as Record<string, unknown> };
}

export function sessionCommands(program: Command): void {
  program
    .command('session')
    .description(
      'pay once, call many: the first call opens a chain paid with its price plus --budget; the others spend the budget; the rest is refunded at the end',
    )
    .requiredOption('--budget <usdc>', 'what the calls after the first may spend (prepaid with the first)')
    .option('--max-depth <n>', 'how deep the agents called may call in turn (0-5)', intOption('--max-depth', 0, 5))
    .option(
      '--calls <json>',
      'the calls, a JSON array of {targetAgentId, capabilityId, input} (else JSON lines on stdin)',
    )
    .option(
      '--confirm-above <usdc>',
      'ask before paying more than this (AGORA_CONFIRM_ABOVE)',
      cliEnvironment().confirmAbove ?? '0.10',
    )
    .option('-y, --yes', 'do not ask, whatever the price')
    .action(async (o: SessionFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      const budget = toMicros(o.budget);
      if (
        budget > toMicros(o.confirmAbove) &&
        !o.yes &&
        !(await confirm(`The session prepays ${formatMicros(budget)} USDC beside the first call's price. Pay?`))
      )
        throw new CliError('Not confirmed; nothing was paid', EXIT.refused);
      // The confirmation covered one budget: a chain that closed under the session (a pause longer than a token lives) is not paid again.
      const session = (await ctx.signed()).session({ budget: o.budget, maxDepth: o.maxDepth, reopen: false });
      const calls: Record<string, unknown>[] = [];
      let failure: unknown = null;
      try {
        for await (const call of callsOf(o)) {
          const r = await session.execute(call);
          const chain = (r as { chain?: { remainingBudget: string } }).chain;
          const shown = {
            requestId: r.requestId,
            status: r.status,
            output: r.output,
            cost: r.cost,
            remainingBudget: chain?.remainingBudget ?? null,
          };
          calls.push(shown);
          // As they come, for a person; all at once, as one JSON document, for a script.
          if (!ctx.out.json) ctx.out.record(shown);
        }
      } catch (err) {
        failure = err;
      }
      // Whatever happened, the chain is closed and what is left refunded (a failure to close does not hide the first).
      const summary = await session.close().catch((err: unknown) => {
        if (failure) return null;
        throw err;
      });
      if (!summary) throw failure;
      if (failure) {
        if (!ctx.out.json) ctx.out.record(summary, 'session');
        // A script reads the calls that ran and the refund beside the error, in one JSON document.
        throw ctx.out.json ? new FailedWith(failure, { calls, session: summary }) : failure;
      }
      ctx.out.record(ctx.out.json ? { calls, session: summary } : summary, ctx.out.json ? undefined : 'session');
    });
}
