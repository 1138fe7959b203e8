/**
 * Every variable the CLI reads, read here once (the one place it touches process.env): defaults for
 * the flags, and the secrets that are better not passed as flags (they show in process lists).
 */
export interface CliEnvironment {
  url?: string;
  keystore?: string;
  password?: string;
  privateKey?: string;
  maxPerCall?: string;
  maxSession?: string;
  confirmAbove?: string;
  allowedAssets?: string;
  /** `agora listen`'s signing secret (its --secret would show in `ps` and the shell history). */
  listenSecret?: string;
}

export function cliEnvironment(): CliEnvironment {
  // eslint-disable-next-line no-restricted-properties -- the CLI is configured by its environment and flags
  const env = process.env;
  return {
    url: env.AGORA_URL || undefined,
    keystore: env.AGORA_KEYSTORE,
    password: env.AGORA_PASSWORD,
    privateKey: env.AGORA_PRIVATE_KEY,
    maxPerCall: env.AGORA_MAX_PER_CALL,
    maxSession: env.AGORA_MAX_SESSION,
    confirmAbove: env.AGORA_CONFIRM_ABOVE,
    allowedAssets: env.AGORA_ALLOWED_ASSETS,
    listenSecret: env.AGORA_LISTEN_SECRET || undefined,
  };
}
