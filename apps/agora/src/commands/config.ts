import { Command } from 'commander';
import { contextOf } from '../context';
import { apiUrl, PROFILE_KEYS, profileKey } from '../profile';

/** `agora config`: the saved profile (config.json beside the keystore), used when no flag or environment variable says otherwise. */
export function configCommands(program: Command): void {
  const config = program
    .command('config')
    .description(`the saved profile (${PROFILE_KEYS.join(', ')}); a flag or the environment still wins`);
  config
    .command('set <key> <value>')
    .description('save a setting, e.g. `agora config set api https://agora.example.com`')
    .action((key: string, value: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const k = profileKey(key);
      const values = { ...ctx.profile.read(), [k]: apiUrl(value, 'api') };
      ctx.profile.write(values);
      ctx.out.record({ ...values, file: ctx.profile.path }, 'Saved');
    });
  config
    .command('get [key]')
    .description('the saved settings (or one)')
    .action((key: string | undefined, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const values = ctx.profile.read();
      ctx.out.record(
        key === undefined
          ? { ...values, file: ctx.profile.path }
          : { [profileKey(key)]: values[profileKey(key)] ?? null },
      );
    });
  config
    .command('unset <key>')
    .description('forget a setting')
    .action((key: string, _o, cmd: Command) => {
      const ctx = contextOf(cmd);
      const { [profileKey(key)]: _removed, ...rest } = ctx.profile.read();
      ctx.profile.write(rest);
      ctx.out.record({ ...rest, file: ctx.profile.path }, 'Removed');
    });
}
