/* The api's OpenAPI document as a committed file.
     npm run openapi          writes docs/openapi.json
     npm run openapi:check    regenerates it to .tmp/openapi.json and fails if docs/openapi.json differs (CI)
   No server, Postgres or Redis: the api's module graph is built in Nest's preview mode (no provider
   is created). Run: node -r @swc-node/register scripts/openapi.ts [--check] */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '@app/config';
import { generateOpenApiDocument, serializeOpenApiDocument } from '../apps/api/src/openapi';

const ROOT = resolve(__dirname, '..');
const COMMITTED = 'docs/openapi.json';
const REGENERATED = '.tmp/openapi.json';
// Fixed settings rather than the caller's environment: the file must not depend on who generates it.
const CONFIG_ENV = { NODE_ENV: 'development', LOG_LEVEL: 'silent' };

async function main(check: boolean): Promise<number> {
  const text = serializeOpenApiDocument(await generateOpenApiDocument(loadConfig(CONFIG_ENV)));
  if (!check) {
    writeFileSync(resolve(ROOT, COMMITTED), text);
    process.stdout.write(`wrote ${COMMITTED}\n`);
    return 0;
  }
  mkdirSync(resolve(ROOT, '.tmp'), { recursive: true });
  writeFileSync(resolve(ROOT, REGENERATED), text);
  const committed = existsSync(resolve(ROOT, COMMITTED)) ? readFileSync(resolve(ROOT, COMMITTED), 'utf8') : null;
  if (committed === text) {
    process.stdout.write(`${COMMITTED} is up to date\n`);
    return 0;
  }
  process.stderr.write(
    committed === null
      ? `openapi:check: ${COMMITTED} is missing. Run \`npm run openapi\` and commit it.\n`
      : `openapi:check: ${COMMITTED} is out of date: the API's routes or DTOs changed since it was generated.\n` +
          `Run \`npm run openapi\` and commit docs/openapi.json. Difference (committed -> regenerated ${REGENERATED}):\n`,
  );
  if (committed !== null) {
    const diff = spawnSync('git', ['diff', '--no-index', '--no-color', '--', COMMITTED, REGENERATED], { cwd: ROOT, encoding: 'utf8' });
    const lines = (diff.stdout || '').split('\n');
    process.stderr.write(`${lines.slice(0, 80).join('\n')}\n${lines.length > 80 ? `... ${lines.length - 80} more lines\n` : ''}`);
  }
  return 1;
}

main(process.argv.includes('--check')).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`openapi: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
