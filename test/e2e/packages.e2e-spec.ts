import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newWallet } from '../support/wallets';

const ROOT = join(__dirname, '..', '..');
/** Each publishable package and its folder in the repository. */
const PACKAGES = { '@agora/sdk': 'libs/sdk', '@agora/cli': 'apps/agora', '@agora/mcp': 'apps/mcp' } as const;
type Name = keyof typeof PACKAGES;
const NAMES = Object.keys(PACKAGES) as Name[];

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of the npm and node children: this process's, without the npm_* settings an
 * `npm run`/`npx` parent leaves behind (they would point npm at this repository's project).
 */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = cleanEnv()): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function ok(command: string, args: string[], cwd: string): Promise<string> {
  const r = await run(command, args, cwd);
  if (r.code !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.code}:\n${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** Every JavaScript file under `dir`. */
function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.(c|m)?js$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

const BUILTINS = new Set(builtinModules);
/** The npm packages a bundled file loads: bare `require`, `import` and `from` specifiers, Node's own left out. */
function importedPackages(code: string): string[] {
  const found = new Set<string>();
  for (const m of code.matchAll(
    /(?:\brequire\(\s*|\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([@a-z0-9][\w.@/-]*)["']/g,
  )) {
    const spec = m[1];
    if (spec.startsWith('node:') || BUILTINS.has(spec.split('/')[0])) continue;
    found.add(
      spec
        .split('/')
        .slice(0, spec.startsWith('@') ? 2 : 1)
        .join('/'),
    );
  }
  return [...found];
}

/**
 * The publishable packages as someone outside the repository gets them: each is packed from its
 * build (`npm run build`), the three tarballs are installed together into an empty project, and
 * there the SDK loads from ESM and CommonJS, `npx agora --help` answers, and `npx @agora/mcp`
 * serves its tools over stdio to the official MCP client.
 */
describe('publishable packages (e2e)', () => {
  let work: string;
  let project: string;
  const packed = {} as Record<Name, { files: string[] }>;
  const installed = (name: Name) => join(project, 'node_modules', name);
  const manifest = (name: Name) => JSON.parse(readFileSync(join(installed(name), 'package.json'), 'utf8'));

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'agora-packages-'));
    const tarballs: string[] = [];
    for (const name of NAMES) {
      // --ignore-scripts: pack what `npm run build` made, without rebuilding under other running tests.
      const out = await ok(
        'npm',
        ['pack', `./${PACKAGES[name]}`, '--ignore-scripts', '--json', '--pack-destination', work],
        ROOT,
      );
      const [info] = JSON.parse(out) as { name: string; filename: string; files: { path: string }[] }[];
      expect(info.name).toBe(name);
      packed[name] = { files: info.files.map((f) => f.path) };
      tarballs.push(join(work, info.filename));
    }
    project = join(work, 'project');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'agora-packages-check', version: '0.0.0', private: true }),
    );
    await ok('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], project);
  }, 300_000);
  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('each tarball holds its build, README, LICENSE and NOTICE, and declares Apache-2.0 and Node >= 20.19', () => {
    for (const name of NAMES) {
      expect(packed[name].files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', 'NOTICE']));
      expect(packed[name].files.some((f) => f.startsWith('dist/'))).toBe(true);
      expect(readFileSync(join(installed(name), 'LICENSE'), 'utf8')).toContain(
        'Apache License\n                           Version 2.0, January 2004',
      );
      expect(manifest(name)).toMatchObject({ name, license: 'Apache-2.0', engines: { node: '>=20.19' } });
    }
    expect(manifest('@agora/cli').bin).toEqual({ agora: expect.any(String) });
    expect(manifest('@agora/mcp').bin).toEqual({ 'agora-mcp': expect.any(String) });
  });

  it('each package depends on every npm package its code loads, and the CLI and MCP server share the one SDK', () => {
    for (const name of NAMES) {
      const dependencies = Object.keys(manifest(name).dependencies ?? {});
      const loaded = new Set(
        scripts(join(installed(name), 'dist')).flatMap((file) => importedPackages(readFileSync(file, 'utf8'))),
      );
      expect({ name, missing: [...loaded].filter((p) => !dependencies.includes(p)) }).toEqual({ name, missing: [] });
      if (name !== '@agora/sdk') {
        // The SDK is a dependency, loaded from its own package, not bundled into the app.
        expect(loaded.has('@agora/sdk')).toBe(true);
        expect(existsSync(join(installed(name), 'node_modules', '@agora', 'sdk'))).toBe(false);
      }
    }
  });

  it('the SDK loads from ESM and from CommonJS with its exports and type declarations', async () => {
    const probe = (sdk: string) =>
      `const c = new ${sdk}.AgoraClient({ baseUrl: 'http://127.0.0.1:9' });` +
      `console.log(JSON.stringify({ client: typeof c.payments, kit: typeof ${sdk}.AgentKit, verify: typeof ${sdk}.verifyAgoraSignature, micros: String(${sdk}.toMicros('1.5')) }));`;
    const expected = { client: 'object', kit: 'function', verify: 'function', micros: '1500000' };
    const esm = await ok(
      process.execPath,
      ['--input-type=module', '-e', `import * as sdk from '@agora/sdk'; ${probe('sdk')}`],
      project,
    );
    expect(JSON.parse(esm)).toEqual(expected);
    const cjs = await ok(process.execPath, ['-e', `const sdk = require('@agora/sdk'); ${probe('sdk')}`], project);
    expect(JSON.parse(cjs)).toEqual(expected);
    const { exports } = manifest('@agora/sdk');
    for (const types of [exports['.'].import.types, exports['.'].require.types])
      expect(existsSync(join(installed('@agora/sdk'), types))).toBe(true);
  });

  it('`npx agora --help` prints the usage and exits 0; --version is the package version', async () => {
    const help = await run('npx', ['--no-install', 'agora', '--help'], project);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: agora') });
    for (const command of ['wallet', 'discover', 'execute', 'balance'])
      expect(help.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
    const version = await run('npx', ['--no-install', 'agora', '--version'], project);
    expect(version).toMatchObject({ code: 0, stdout: `${manifest('@agora/cli').version}\n` });
  }, 60_000);

  it('`npx @agora/mcp` serves its tools over stdio to the official MCP client', async () => {
    const client = new Client({ name: 'agora-packages-test', version: '1.0.0' });
    const env = cleanEnv({ AGORA_URL: 'http://127.0.0.1:9', AGORA_PRIVATE_KEY: newWallet().privateKey });
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['--no-install', '@agora/mcp'],
        cwd: project,
        env,
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(['discover', 'recommend', 'budget_check', 'execute', 'get_execution', 'spending']),
      );
    } finally {
      await client.close();
    }
  }, 60_000);
});
