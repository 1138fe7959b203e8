import { Command } from 'commander';
import type { WebhookEvent } from '@agora/sdk';
import { intOption } from '../args';
import { contextOf } from '../context';

export function webhookCommands(program: Command): void {
  const webhooks = program.command('webhooks').description("an agent's webhook subscriptions (signed by its wallet)");
  webhooks
    .command('create <agentId> <url>')
    .requiredOption(
      '--events <list>',
      'comma-separated: execution.completed,execution.failed,dispute.filed,dispute.resolved,escrow.released,withdrawal.completed,withdrawal.failed,agent.health_changed',
    )
    .option('--secret <secret>', 'signs the deliveries (24-256 characters)')
    .action(async (agentId: string, url: string, o: { events: string; secret?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const events = o.events.split(',').map((e) => e.trim()) as WebhookEvent[];
      ctx.out.record(
        await (await ctx.signed()).webhooks.create({ agentId, url, events, ...(o.secret ? { secret: o.secret } : {}) }),
        'Webhook created',
      );
    });
  webhooks
    .command('list <agentId>')
    .description('unsigned, each URL shows its origin only; --signed (your wallet signs for the agent): whole URLs')
    .option('--signed', "sign with the agent's wallet: whole URLs")
    .action(async (agentId: string, o: { signed?: boolean }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const client = o.signed ? await ctx.signed() : ctx.anonymous();
      const list = await client.webhooks.list(agentId, {}, { signed: o.signed === true });
      const rows = list.webhooks.map((w) => ({ id: w.id, url: w.url, events: w.events.join(','), status: w.status }));
      ctx.out.rows(list, rows, ['id', 'url', 'events', 'status']);
    });
  webhooks
    .command('delete <webhookId>')
    .requiredOption('--agent <agentId>', 'the agent it belongs to (your wallet signs for it)')
    .action(async (id: string, o: { agent: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await (await ctx.signed()).webhooks.remove(id, o.agent), 'Webhook deleted');
    });
  webhooks
    .command('deliveries <webhookId>')
    .description("a webhook's delivery attempts, newest first")
    .requiredOption('--agent <agentId>', 'the agent it belongs to (your wallet signs for it)')
    .option('--limit <n>', 'how many (1-100)', intOption('--limit', 1, 100))
    .option('--offset <n>', 'skip', intOption('--offset', 0, 1_000_000))
    .action(async (id: string, o: { agent: string; limit?: number; offset?: number }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const list = await (await ctx.signed()).webhooks.deliveries(id, o.agent, { limit: o.limit, offset: o.offset });
      const rows = list.deliveries as unknown as Record<string, unknown>[];
      ctx.out.rows(list, rows, [
        'deliveryId',
        'eventType',
        'attempt',
        'status',
        'responseStatus',
        'scheduledAt',
        'error',
      ]);
    });
  webhooks
    .command('redeliver <webhookId> <deliveryId>')
    .description('send a past delivery again now (one attempt, outside the schedule)')
    .requiredOption('--agent <agentId>', 'the agent it belongs to (your wallet signs for it)')
    .action(async (id: string, deliveryId: string, o: { agent: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record(await (await ctx.signed()).webhooks.redeliver(id, deliveryId, o.agent), 'Redelivery sent');
    });
}
