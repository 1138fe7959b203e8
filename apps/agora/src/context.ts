import { AgoraClient, parseAllowedAssets } from '@agora/sdk';
import { Command } from 'commander';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment } from './environment';
import { Keystore } from './keystore';
import { Printer, printer } from './output';

/** Global options, from flags or the environment. */
export interface GlobalOptions {
  api: string;
  keystore: string;
  json?: boolean;
  maxPerCall: string;
  maxSession: string;
}

export function addGlobalOptions(program: Command): Command {
  const env = cliEnvironment();
  return program
    .option('--api <url>', 'agora API base URL (AGORA_URL)', env.url ?? 'http://localhost:3000')
    .option('--keystore <path>', 'encrypted wallet file (AGORA_KEYSTORE)', env.keystore ?? join(homedir(), '.agora', 'keystore.json'))
    .option('--json', 'print JSON instead of tables')
    .option('--max-per-call <usdc>', 'never pay more than this for one call (AGORA_MAX_PER_CALL)', env.maxPerCall ?? '1.00')
    .option('--max-session <usdc>', 'never pay more than this in one command (AGORA_MAX_SESSION)', env.maxSession ?? '10.00');
}

/** What a command works with: the printer, the keystore, and clients made on demand. */
export class Context {
  readonly out: Printer;
  readonly keystore: Keystore;
  readonly env = cliEnvironment();

  constructor(readonly options: GlobalOptions) {
    this.out = printer(Boolean(options.json));
    this.keystore = new Keystore(options.keystore, this.env.password);
  }

  /** A client without a wallet: public reads. */
  anonymous(): AgoraClient {
    return new AgoraClient({ baseUrl: this.options.api });
  }

  /** A client with the keystore's wallet (asks for the password): payments and signed actions. */
  async signed(): Promise<AgoraClient> {
    const wallet = await this.keystore.load();
    const allowedAssets = parseAllowedAssets(this.env.allowedAssets);
    return new AgoraClient({ baseUrl: this.options.api, wallet, spendCap: { perCall: this.options.maxPerCall, perSession: this.options.maxSession }, allowedAssets });
  }
}

/** The context of a subcommand: its root program's global options. */
export function contextOf(command: Command): Context {
  let root = command;
  while (root.parent) root = root.parent;
  return new Context(root.opts<GlobalOptions>());
}
