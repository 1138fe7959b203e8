import { Command } from 'commander';
import { contextOf } from '../context';

export function disputeCommands(program: Command): void {
  const disputes = program.command('disputes').description('disputes: filed by the payer, answered by the agent');
  disputes
    .command('file <transactionId>')
    .description('dispute a charge you paid (your wallet signs as the payer)')
    .requiredOption('--reason <text>')
    .option('--evidence <text>')
    .action(async (transactionId: string, o: { reason: string; evidence?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(
        await (await ctx.signed()).disputes.file({ transactionId, reason: o.reason, evidence: o.evidence }),
        'Dispute filed',
      );
    });
  disputes
    .command('respond <disputeId>')
    .description('answer a dispute against your agent')
    .requiredOption('--agent <agentId>')
    .requiredOption('--response <text>')
    .option('--evidence <text>')
    .action(async (disputeId: string, o: { agent: string; response: string; evidence?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(
        await (await ctx.signed()).disputes.respond(disputeId, o.agent, o.response, o.evidence),
        'Response recorded',
      );
    });
  disputes.command('get <disputeId>').action(async (disputeId: string, _o, cmd: Command) => {
    const ctx = contextOf(cmd);
    ctx.out.record(await ctx.anonymous().disputes.get(disputeId));
  });
  disputes
    .command('list <agentId>')
    .option('--status <status>', 'pending, responded or resolved')
    .action(async (agentId: string, o: { status?: 'pending' | 'responded' | 'resolved' }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const list = await ctx.anonymous().disputes.forAgent(agentId, o.status ? { status: o.status } : {});
      const rows = list.disputes.map((d) => ({
        id: d.id,
        transactionId: d.transactionId,
        status: d.status,
        reason: d.reason,
        respondBy: d.respondBy,
      }));
      ctx.out.rows(list, rows, ['id', 'transactionId', 'status', 'reason', 'respondBy']);
    });
}
