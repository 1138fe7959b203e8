import { getAddress, Wallet } from 'ethers';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CliError, EXIT } from './output';
import { askSecret } from './prompt';

/**
 * The wallet lives in an encrypted keystore file (ethers' JSON keystore, scrypt + AES): the private
 * key is never stored or printed in clear. The password comes from AGORA_PASSWORD or a prompt.
 */
export class Keystore {
  constructor(
    readonly path: string,
    private readonly passwordFromEnv: string | undefined,
  ) {}

  async create(): Promise<Wallet> {
    return this.save(new Wallet(Wallet.createRandom().privateKey), true);
  }

  async import(privateKey: string): Promise<Wallet> {
    let wallet: Wallet;
    try {
      wallet = new Wallet(privateKey.trim().startsWith('0x') ? privateKey.trim() : `0x${privateKey.trim()}`);
    } catch {
      throw new CliError('That is not a private key (64 hex digits)', EXIT.usage);
    }
    return this.save(wallet, true);
  }

  async load(): Promise<Wallet> {
    let json: string;
    try {
      json = await readFile(this.path, 'utf8');
    } catch {
      throw new CliError(
        `No keystore at ${this.path}: run \`agora wallet create\` or \`agora wallet import\``,
        EXIT.wallet,
      );
    }
    const password = await this.password(false);
    try {
      const wallet = await Wallet.fromEncryptedJson(json, password);
      return new Wallet(wallet.privateKey);
    } catch {
      throw new CliError(`Wrong password for ${this.path} (or the file is not a keystore)`, EXIT.wallet);
    }
  }

  /** The address, read from the keystore without the password. */
  async address(): Promise<string> {
    try {
      const { address } = JSON.parse(await readFile(this.path, 'utf8')) as { address?: string };
      if (!address) throw new Error('no address');
      return getAddress(address.startsWith('0x') ? address : `0x${address}`);
    } catch {
      throw new CliError(`No readable keystore at ${this.path}`, EXIT.wallet);
    }
  }

  private async save(wallet: Wallet, confirm: boolean): Promise<Wallet> {
    const password = await this.password(confirm);
    if (password.length < 8) throw new CliError('The password must have at least 8 characters', EXIT.usage);
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    await writeFile(this.path, await wallet.encrypt(password), { mode: 0o600, flag: 'wx' }).catch(
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'EEXIST')
          throw new CliError(`${this.path} already exists; choose another --keystore or remove it`, EXIT.usage);
        throw err;
      },
    );
    await chmod(this.path, 0o600);
    return wallet;
  }

  private async password(confirm: boolean): Promise<string> {
    if (this.passwordFromEnv !== undefined) return this.passwordFromEnv;
    const first = await askSecret('Keystore password: ');
    if (confirm && (await askSecret('Repeat the password: ')) !== first)
      throw new CliError('The passwords differ', EXIT.usage);
    return first;
  }
}
