import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/*
 * docker-compose.yml and the Dockerfile read as Docker Compose reads them, for tests that run a
 * service's command as a local process with the environment its container would get.
 */
const ROOT = join(__dirname, '..', '..');

export interface ComposeService {
  command?: string[];
  environment?: Record<string, string>;
  env_file?: (string | { path: string; required?: boolean })[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  profiles?: string[];
}

export function readCompose(): { services: Record<string, ComposeService> } {
  return parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
}

/** `KEY=value` lines; `#` comments and blank lines skipped (the files init:env writes). */
export function parseDotenv(text: string): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (m) vars[m[1]] = m[2].trim();
  }
  return vars;
}

/** Compose's interpolation: `$$`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string) => {
      if (whole === '$$') return '$';
      const v = vars[name!];
      const unset = op?.startsWith(':') ? !v : v === undefined;
      if (op === undefined || !unset) return v ?? '';
      if (op.endsWith('?')) throw new Error(`compose: ${name} ${arg}`);
      return arg;
    },
  );
}

/** The `ENV` settings of the Dockerfile's last stage (the image every app service runs). */
export function imageEnv(): Record<string, string> {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  return Object.fromEntries([...lastStage.matchAll(/^ENV ([A-Za-z_][A-Za-z0-9_]*)=(\S+)$/gm)].map((m) => [m[1], m[2]]));
}

/**
 * A service's container environment: the image's ENV, then its env_file (`dotenv`, the project's
 * `.env`, which is also the interpolation source), then its `environment` interpolated.
 */
export function serviceEnv(service: ComposeService, dotenv: Record<string, string> | null): Record<string, string> {
  const files = (service.env_file ?? []).map((f) => (typeof f === 'string' ? { path: f, required: true } : f));
  if (files.some((f) => f.path !== '.env')) throw new Error('only the project .env is read here');
  if (dotenv === null && files.some((f) => f.required !== false)) throw new Error('compose: .env is required');
  const vars = dotenv ?? {};
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]),
  );
  return { ...imageEnv(), ...(files.length > 0 ? vars : {}), ...environment };
}
