/* The api's OpenAPI document as a committed file, and the SDK's types generated from it.
     npm run openapi          writes docs/openapi.json and libs/sdk/src/generated/openapi.ts
     npm run openapi:check    regenerates both under .tmp/ and fails if a committed one differs (CI):
                              the API and the SDK cannot disagree
   No server, Postgres or Redis: the api's module graph is built in Nest's preview mode (no provider
   is created). Run: node -r @swc-node/register scripts/openapi.ts [--check] */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '@app/config';
import { generateOpenApiDocument, serializeOpenApiDocument } from '../apps/api/src/openapi';

const ROOT = resolve(__dirname, '..');
// Fixed settings rather than the caller's environment: the files must not depend on who generates them.
const CONFIG_ENV = { NODE_ENV: 'development', LOG_LEVEL: 'silent' };
const SDK_HEADER = '/* Generated from docs/openapi.json by `npm run openapi` (openapi-typescript). Do not edit. */\n';

async function generate(): Promise<{ path: string; text: string }[]> {
  const document = serializeOpenApiDocument(await generateOpenApiDocument(loadConfig(CONFIG_ENV)));
  const types = SDK_HEADER + astToString(await openapiTS(JSON.parse(document)));
  return [
    { path: 'docs/openapi.json', text: document },
    { path: 'libs/sdk/src/generated/openapi.ts', text: types },
  ];
}

async function main(check: boolean): Promise<number> {
  let failed = 0;
  for (const { path, text } of await generate()) {
    if (!check) {
      writeFileSync(resolve(ROOT, path), text);
      process.stdout.write(`wrote ${path}\n`);
      continue;
    }
    const regenerated = `.tmp/${path.replace(/\//g, '_')}`;
    mkdirSync(resolve(ROOT, '.tmp'), { recursive: true });
    writeFileSync(resolve(ROOT, regenerated), text);
    const committed = existsSync(resolve(ROOT, path)) ? readFileSync(resolve(ROOT, path), 'utf8') : null;
    if (committed === text) {
      process.stdout.write(`${path} is up to date\n`);
      continue;
    }
    failed++;
    process.stderr.write(
      committed === null
        ? `openapi:check: ${path} is missing. Run \`npm run openapi\` and commit it.\n`
        : `openapi:check: ${path} is out of date: the API's routes or DTOs changed since it was generated.\n` +
            `Run \`npm run openapi\` and commit it. Difference (committed -> regenerated ${regenerated}):\n`,
    );
    if (committed !== null) {
      const diff = spawnSync('git', ['diff', '--no-index', '--no-color', '--', path, regenerated], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      const lines = (diff.stdout || '').split('\n');
      process.stderr.write(
        `${lines.slice(0, 80).join('\n')}\n${lines.length > 80 ? `... ${lines.length - 80} more lines\n` : ''}`,
      );
    }
  }
  return failed ? 1 : 0;
}

main(process.argv.includes('--check')).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`openapi: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
