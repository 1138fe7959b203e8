import { Command } from 'commander';
import { contextOf } from '../context';

export function walletCommands(program: Command): void {
  const wallet = program.command('wallet').description('the encrypted keystore holding your wallet');
  wallet
    .command('create')
    .description('create a new wallet in the keystore (password from AGORA_PASSWORD or a prompt)')
    .action(async (_o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const w = await ctx.keystore.create();
      ctx.out.record({ address: w.address, keystore: ctx.keystore.path }, 'Wallet created');
    });
  wallet
    .command('import')
    .description('import a private key (from --private-key or AGORA_PRIVATE_KEY) into the keystore')
    .option('--private-key <hex>', 'the key to import (prefer AGORA_PRIVATE_KEY: flags show in process lists)')
    .action(async (o: { privateKey?: string }, cmd: Command) => {
      const ctx = contextOf(cmd);
      const key = o.privateKey ?? ctx.env.privateKey ?? '';
      const w = await ctx.keystore.import(key);
      ctx.out.record({ address: w.address, keystore: ctx.keystore.path }, 'Wallet imported');
    });
  wallet
    .command('show')
    .description("the keystore's address (no password needed)")
    .action(async (_o, cmd: Command) => {
      const ctx = contextOf(cmd);
      ctx.out.record({ address: await ctx.keystore.address(), keystore: ctx.keystore.path });
    });
}
