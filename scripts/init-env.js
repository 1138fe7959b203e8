#!/usr/bin/env node
/* npm run init:env: writes a `.env` of fresh secrets for `docker compose up` (docs/deploy.md).
     npm run init:env                        a new platform wallet too: PLATFORM_WALLET and its key
                                             (RELAYER_PRIVATE_KEY, the hot wallet evm mode needs)
     npm run init:env -- --wallet 0x...      your own wallet's address; no key is written
     npm run init:env -- --base-url https://agora.example.com
                                             the public address (PUBLIC_BASE_URL) behind your TLS proxy;
                                             without it, http://localhost:3000, this machine only
     npm run init:env -- --force             replaces an existing file
     npm run init:env -- --out path/.env     another file than ./.env
   Never overwrites a file without --force; the file is readable by its owner only. */
const { randomBytes } = require('node:crypto');
const { renameSync, writeFileSync } = require('node:fs');
const { resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { getAddress, isAddress, Wallet } = require('ethers');

function fail(message) {
  process.stderr.write(`init:env: ${message}\n`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      force: { type: 'boolean', default: false },
      wallet: { type: 'string' },
      'base-url': { type: 'string' },
      out: { type: 'string', default: '.env' },
    },
  }).values;
} catch (err) {
  fail(
    `${err.message}\nusage: npm run init:env -- [--wallet 0x<address>] [--base-url https://<host>] [--force] [--out <file>]`,
  );
}
if (args.wallet !== undefined && !isAddress(args.wallet)) fail(`--wallet must be a 0x address (got "${args.wallet}")`);
const baseUrl = args['base-url']?.replace(/\/+$/, '');
if (baseUrl !== undefined && !/^https:\/\/[^/?#@\s]+(\/[^?#\s]*)?$/.test(baseUrl))
  fail(`--base-url must be the https:// address clients reach the api at (got "${baseUrl}")`);

const hex = () => randomBytes(32).toString('hex');
const dbPassword = hex();
const wallet = args.wallet === undefined ? Wallet.createRandom() : null;
const address = wallet ? wallet.address : getAddress(args.wallet);
const lines = [
  `# Written by npm run init:env at ${new Date().toISOString()}. Secrets: keep it out of version control`,
  '# and back it up; docs/deploy.md says how to rotate each one. docker compose reads it.',
  '',
  wallet
    ? '# A wallet generated here: payments go to it, and in evm mode it pays withdrawals and gas (fund it).'
    : '# Your wallet: payments go to it. In evm mode set RELAYER_PRIVATE_KEY to its key (the hot wallet).',
  `PLATFORM_WALLET=${address}`,
  ...(wallet ? [`RELAYER_PRIVATE_KEY=${wallet.privateKey}`] : []),
  '# Signs calls to agents, callbacks and dispute attestations (GET /api/v1/platform/keys).',
  `PLATFORM_SIGNING_SEED=${hex()}`,
  '# Chain tokens: the first seed signs, every one listed verifies (rotate by putting a new one first).',
  `CHAIN_TOKEN_SEEDS=${hex()}`,
  '# X-Admin-Key for platform actions (disputes).',
  `ADMIN_API_KEY=${hex()}`,
  '# Bearer token of GET /metrics on the api and the worker.',
  `METRICS_TOKEN=${hex()}`,
  "# compose's Postgres: its superuser's password (set when its volume is first created) and DATABASE_URL's.",
  `POSTGRES_PASSWORD=${dbPassword}`,
  'POSTGRES_HOST_AUTH_METHOD=scram-sha-256',
  `DATABASE_URL=postgres://postgres:${dbPassword}@postgres:5432/agora`,
  '',
  ...(baseUrl
    ? ['# Where clients reach the api (behind the TLS proxy): every 402 names it.', `PUBLIC_BASE_URL=${baseUrl}`]
    : [
        '# Where clients reach the api: this machine only. Production refuses a plain-http base URL unless it is',
        '# on this machine and PUBLIC_BASE_URL_LOOPBACK says so. Before exposing the api, put your https address',
        '# here (behind the TLS proxy, docs/deploy.md) and delete PUBLIC_BASE_URL_LOOPBACK.',
        'PUBLIC_BASE_URL=http://localhost:3000',
        'PUBLIC_BASE_URL_LOOPBACK=true',
      ]),
  '',
  '# How payments settle (docs/deploy.md):',
  '# SETTLEMENT_MODE=evm',
  '# EVM_RPC_URL=',
  '# EVM_CHAIN_ID=8453',
  '# USDC_ADDRESS=',
  '',
];

const out = resolve(args.out);
try {
  if (args.force) {
    // A fresh file (0600 from its creation) renamed over the old one: the secrets never sit in a file
    // with the old one's mode, and a symlink at `out` is replaced, not followed.
    const tmp = `${out}.${process.pid}.tmp`;
    writeFileSync(tmp, lines.join('\n'), { mode: 0o600, flag: 'wx' });
    renameSync(tmp, out);
  } else {
    // wx: refuses an existing file (no check-then-write race).
    writeFileSync(out, lines.join('\n'), { mode: 0o600, flag: 'wx' });
  }
} catch (err) {
  if (err.code === 'EEXIST') fail(`${out} exists; it holds secrets in use. Pass --force to replace it.`);
  throw err;
}
process.stdout.write(
  `init:env: wrote ${out} (platform wallet ${address}${wallet ? ', generated: its key is in the file' : ''})\n`,
);
if (!baseUrl) {
  process.stdout.write(
    'init:env: PUBLIC_BASE_URL is http://localhost:3000 (this machine only); for a public deployment run again ' +
      'with --base-url https://<your host> --force, or edit the file\n',
  );
}
