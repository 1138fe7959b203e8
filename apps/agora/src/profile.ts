import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './output';

/** What the profile may hold. */
export const PROFILE_KEYS = ['api'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];
export type ProfileValues = Partial<Record<ProfileKey, string>>;

/** An API base URL: http(s) with a host, else a usage error (never an "unreachable" one). */
export function apiUrl(value: string, from: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(
      `${from} must be an http(s) URL, e.g. https://agora.example.com (got ${JSON.stringify(value)})`,
      EXIT.usage,
    );
  }
  if (!['http:', 'https:'].includes(url.protocol) || !url.hostname) {
    throw new CliError(
      `${from} must be an http(s) URL, e.g. https://agora.example.com (got ${JSON.stringify(value)})`,
      EXIT.usage,
    );
  }
  return value;
}

export function profileKey(key: string): ProfileKey {
  if (!(PROFILE_KEYS as readonly string[]).includes(key))
    throw new CliError(`Unknown setting ${key}: one of ${PROFILE_KEYS.join(', ')}`, EXIT.usage);
  return key as ProfileKey;
}

/**
 * Saved settings (`agora config set api <url>`), in config.json beside the keystore (the CLI's
 * config dir, ~/.agora by default): used when neither the flag nor the environment gives one.
 */
export class Profile {
  readonly path: string;

  constructor(keystorePath: string) {
    this.path = join(dirname(keystorePath), 'config.json');
  }

  read(): ProfileValues {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return {};
    }
    try {
      const value = JSON.parse(text) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) return value as ProfileValues;
    } catch {
      // reported below
    }
    throw new CliError(
      `${this.path} is not a JSON object: fix it, or remove it and run \`agora config set\` again`,
      EXIT.usage,
    );
  }

  write(values: ProfileValues): void {
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    writeFileSync(this.path, `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
  }
}
