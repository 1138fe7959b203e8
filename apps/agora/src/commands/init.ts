import { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { contextOf } from '../context';
import { CliError, EXIT } from '../output';

interface InitFlags {
  file: string;
  name: string;
  endpoint: string;
  force?: boolean;
}

/** A registration to start from: one per-request capability; the wallet is left out (register uses yours). */
export function agentTemplate(name: string, endpoint: string): Record<string, unknown> {
  const base = endpoint.replace(/\/execute\/?$/, '').replace(/\/+$/, '');
  return {
    name,
    description: 'What this agent does, in a sentence or two (discovery and recommendations read it)',
    capabilities: [
      {
        id: 'echo',
        name: 'Echo text',
        description: 'Answers the text it is given',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        outputSchema: { type: 'object', properties: { text: { type: 'string' } } },
        pricing: { model: 'per-request', basePrice: '0.010000', currency: 'USDC' },
      },
    ],
    endpoints: { execution: endpoint, health: `${base}/health` },
    metadata: { version: '0.1.0', tags: [] },
  };
}

export function initCommand(program: Command): void {
  program
    .command('init')
    .description('write an agent.json to start from (edit it, then `agora register --file agent.json`)')
    .option('--file <path>', 'where to write it', 'agent.json')
    .option('--name <name>', "the agent's name", 'My Agent')
    .option(
      '--endpoint <url>',
      'the HTTPS URL that receives the execution POSTs',
      'https://my-agent.example.com/execute',
    )
    .option('--force', 'overwrite the file if it exists')
    .action(async (o: InitFlags, cmd: Command) => {
      const ctx = contextOf(cmd);
      if (o.name.trim().length < 3 || o.name.length > 100)
        throw new CliError('--name must have 3 to 100 characters', EXIT.usage);
      if (!/^https?:\/\/\S+$/.test(o.endpoint)) throw new CliError('--endpoint must be an http(s) URL', EXIT.usage);
      const template = agentTemplate(o.name, o.endpoint);
      await writeFile(o.file, `${JSON.stringify(template, null, 2)}\n`, { flag: o.force ? 'w' : 'wx' }).catch(
        (err: NodeJS.ErrnoException) => {
          if (err.code === 'EEXIST')
            throw new CliError(`${o.file} already exists; pass --force to overwrite it`, EXIT.usage);
          throw new CliError(`Cannot write ${o.file}: ${err.message}`, EXIT.usage);
        },
      );
      ctx.out.record(
        ctx.out.json
          ? { file: o.file, agent: template }
          : { file: o.file, name: o.name, endpoint: o.endpoint, next: `agora register --file ${o.file}` },
        'Agent file written',
      );
    });
}
