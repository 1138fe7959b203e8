import { AgoraClient, parseAllowedAssets } from '@agora/sdk';
import { Command } from 'commander';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { cliEnvironment } from './environment';
import { Keystore } from './keystore';
import { Printer, printer } from './output';
import { apiUrl, Profile } from './profile';

export const DEFAULT_API = 'http://localhost:3000';

/** Global options, from flags or the environment. */
export interface GlobalOptions {
  api?: string;
  keystore: string;
  json?: boolean;
  maxPerCall: string;
  maxSession: string;
}

export function addGlobalOptions(program: Command): Command {
  const env = cliEnvironment();
  return program
    .option('--api <url>', `agora API base URL (AGORA_URL, else \`agora config set api\`, else ${DEFAULT_API})`)
    .option(
      '--keystore <path>',
      'encrypted wallet file (AGORA_KEYSTORE); config.json beside it keeps the profile',
      env.keystore ?? join(homedir(), '.agora', 'keystore.json'),
    )
    .option('--json', 'print JSON instead of tables')
    .option(
      '--max-per-call <usdc>',
      'never pay more than this for one call (AGORA_MAX_PER_CALL)',
      env.maxPerCall ?? '1.00',
    )
    .option(
      '--max-session <usdc>',
      'never pay more than this in one command (AGORA_MAX_SESSION)',
      env.maxSession ?? '10.00',
    );
}

/** What a command works with: the printer, the keystore, and clients made on demand. */
export class Context {
  readonly out: Printer;
  readonly keystore: Keystore;
  readonly profile: Profile;
  readonly env = cliEnvironment();

  constructor(readonly options: GlobalOptions) {
    this.out = printer(Boolean(options.json));
    this.keystore = new Keystore(options.keystore, this.env.password);
    this.profile = new Profile(options.keystore);
  }

  /** The API base URL: --api, else AGORA_URL, else the profile's, else the default; checked before use. */
  get api(): string {
    if (this.options.api !== undefined) return apiUrl(this.options.api, '--api');
    if (this.env.url !== undefined) return apiUrl(this.env.url, 'AGORA_URL');
    const saved = this.profile.read().api;
    return saved === undefined ? DEFAULT_API : apiUrl(saved, `api in ${this.profile.path}`);
  }

  /** A client without a wallet: public reads. */
  anonymous(): AgoraClient {
    return new AgoraClient({ baseUrl: this.api });
  }

  /** A client with the keystore's wallet (asks for the password): payments and signed actions. */
  async signed(): Promise<AgoraClient> {
    const baseUrl = this.api;
    const wallet = await this.keystore.load();
    const allowedAssets = parseAllowedAssets(this.env.allowedAssets);
    return new AgoraClient({
      baseUrl,
      wallet,
      spendCap: { perCall: this.options.maxPerCall, perSession: this.options.maxSession },
      allowedAssets,
    });
  }
}

/** The context of a subcommand: its root program's global options. */
export function contextOf(command: Command): Context {
  let root = command;
  while (root.parent) root = root.parent;
  return new Context(root.opts<GlobalOptions>());
}
