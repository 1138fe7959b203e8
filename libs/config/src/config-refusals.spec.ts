import { generateKeyPairSync } from 'node:crypto';
import express from 'express';
import { ConfigError, DEV_PLATFORM_WALLET, loadConfig } from './config';

/*
 * Values that used to pass validation and fail later (issue 53): each class is refused by loadConfig, one
 * problem per line naming the variable, so a process stops with that message and no stack trace.
 */
function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

const PRODUCTION = {
  NODE_ENV: 'production',
  PLATFORM_WALLET: '0x1111111111111111111111111111111111111111',
  PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
  CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
};

describe('loadConfig refuses what would fail after start', () => {
  it('proxy lists: a /0 range (Express refuses it at boot); every accepted list compiles as Express compiles it', () => {
    for (const bad of ['0.0.0.0/0', 'loopback,::/0', '10.0.0.0/00']) {
      expect(problems({ TRUST_PROXY: bad })).toEqual([expect.stringMatching(/^TRUST_PROXY ranges need a prefix/)]);
    }
    for (const good of [
      'loopback',
      'loopback,uniquelocal',
      '10.1.2.3,172.16.0.0/12,fd00::/8',
      '0.0.0.0/1',
      '::1/128',
    ]) {
      const trustProxy = loadConfig({ TRUST_PROXY: good }).trustProxy;
      expect(() => express().set('trust proxy', trustProxy)).not.toThrow(); // as apps/api sets it
    }
    for (const bad of ['0.0.0.0/0', 'loopback,::/0']) {
      expect(() => express().set('trust proxy', bad)).toThrow(/invalid range/); // what the check stands in for
    }
  });

  it('URLs: a base URL with credentials, a query or a fragment; a database URL without a host or a usable name', () => {
    for (const url of [
      'https://u:p@agora.example.com',
      'https://agora.example.com/?a=1',
      'https://agora.example.com#x',
    ]) {
      expect(problems({ PUBLIC_BASE_URL: url })).toEqual([expect.stringMatching(/^PUBLIC_BASE_URL must be an origin/)]);
    }
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://agora.example.com/market/' }).publicBaseUrl).toBe(
      'https://agora.example.com/market',
    );
    for (const url of ['postgres:///', 'postgres://127.0.0.1/my.db', 'postgres://127.0.0.1/']) {
      expect(problems({ DATABASE_URL: url })).toEqual([expect.stringMatching(/^DATABASE_URL must name a host/)]);
    }
    expect(problems({ DATABASE_READ_URL: 'postgres://replica/a%20b' })).toEqual([
      expect.stringMatching(/^DATABASE_READ_URL must name a host/),
    ]);
    expect(loadConfig({ DATABASE_URL: 'postgres:///agora?host=/var/run/postgresql' }).databaseUrl).toContain('agora');
    expect(problems({ EVM_RPC_URL: 'wss://node.example.com' })).toEqual([
      'EVM_RPC_URL must use http: or https: (got "wss:")',
    ]);
  });

  it('numbers out of range: a duration past what timers and Postgres integers hold; money may go higher', () => {
    expect(problems({ MAINTENANCE_INTERVAL_MS: '2147483648' })).toEqual([
      'MAINTENANCE_INTERVAL_MS must be an integer between 100 and 2147483647 (got "2147483648")',
    ]);
    expect(problems({ ESCROW_HOLD_STANDARD_S: '99999999999' })).toHaveLength(1);
    expect(loadConfig({ MAINTENANCE_INTERVAL_MS: '2147483647' }).maintenanceIntervalMs).toBe(2_147_483_647);
    expect(loadConfig({ RESERVE_MIN_VOLUME_MICRO: '10000000000000' }).reserveMinVolumeMicro).toBe(10_000_000_000_000);
  });

  it('enum values: one of the listed words, named with what was given', () => {
    expect(problems({ LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "verbose")',
    ]);
    expect(problems({ SETTLEMENT_MODE: 'chain' })).toEqual([expect.stringMatching(/^SETTLEMENT_MODE must be one of/)]);
  });

  it('addresses and keys: a private key off the curve; in evm mode a relayer that is not PLATFORM_WALLET', () => {
    for (const key of [`0x${'00'.repeat(32)}`, `0x${'ff'.repeat(32)}`, '0x1234']) {
      expect(problems({ RELAYER_PRIVATE_KEY: key })).toEqual([
        'RELAYER_PRIVATE_KEY must be 0x followed by 64 hex characters, a valid secp256k1 private key',
      ]);
    }
    const evm = {
      SETTLEMENT_MODE: 'evm',
      EVM_RPC_URL: 'http://127.0.0.1:8545',
      USDC_ADDRESS: '0x2222222222222222222222222222222222222222',
      PLATFORM_SIGNING_SEED: 'ab'.repeat(32),
      CHAIN_TOKEN_SEEDS: 'cd'.repeat(32),
      RELAYER_PRIVATE_KEY: `0x${'11'.repeat(32)}`,
    };
    expect(problems({ ...evm, PLATFORM_WALLET: DEV_PLATFORM_WALLET })).toEqual([
      "PLATFORM_WALLET must be RELAYER_PRIVATE_KEY's address 0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A when SETTLEMENT_MODE=evm",
    ]);
    expect(loadConfig({ ...evm, PLATFORM_WALLET: '0x19e7e376e7c213b7e7e7e46cc70a5dd086daff2a' }).settlementMode).toBe(
      'evm',
    );
  });

  it('keys: CDP_API_KEY_SECRET in a form Coinbase signs with (never quoted back)', () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    const ed = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' });
    for (const ok of [Buffer.alloc(64, 7).toString('base64'), pem.toString()])
      expect(problems({ CDP_API_KEY_ID: 'id', CDP_API_KEY_SECRET: ok })).toEqual([]);
    for (const bad of ['s3cret-value', Buffer.alloc(32, 7).toString('base64'), ed.toString()]) {
      const found = problems({ CDP_API_KEY_ID: 'id', CDP_API_KEY_SECRET: bad });
      expect(found).toEqual([expect.stringMatching(/^CDP_API_KEY_SECRET must be a CDP API key secret/)]);
      expect(found.join()).not.toContain(bad.slice(0, 12));
    }
  });

  it('hosts: METRICS_HOST must be something to bind', () => {
    expect(problems({ METRICS_HOST: 'not a host' })).toEqual([
      'METRICS_HOST must be an IP address or a host name to bind (got "not a host")',
    ]);
    for (const host of ['0.0.0.0', '::', 'worker-1.internal']) expect(problems({ METRICS_HOST: host })).toEqual([]);
  });
});

describe('PUBLIC_BASE_URL in production (the 402 advertises it)', () => {
  it('is required', () => {
    expect(problems(PRODUCTION)).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL is required when NODE_ENV=production/),
    ]);
  });

  it.each(['http://agora.example.com', 'http://localhost:3000', 'http://127.0.0.1:3000', 'https://localhost'])(
    'refuses %s without the loopback opt-in',
    (url) => {
      expect(problems({ ...PRODUCTION, PUBLIC_BASE_URL: url })).toEqual([
        expect.stringMatching(/^PUBLIC_BASE_URL must be the https:\/\/ address clients reach the api at/),
      ]);
    },
  );

  it('takes an https public address', () => {
    expect(loadConfig({ ...PRODUCTION, PUBLIC_BASE_URL: 'https://agora.example.com/' }).publicBaseUrl).toBe(
      'https://agora.example.com',
    );
  });

  it('takes an address on this machine only with PUBLIC_BASE_URL_LOOPBACK=true, never a public one', () => {
    const loopback = { ...PRODUCTION, PUBLIC_BASE_URL_LOOPBACK: 'true' };
    for (const url of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect(loadConfig({ ...loopback, PUBLIC_BASE_URL: url })).toMatchObject({ publicBaseUrlLoopback: true });
    }
    expect(problems({ ...loopback, PUBLIC_BASE_URL: 'http://agora.example.com' })).toEqual([
      expect.stringMatching(/^PUBLIC_BASE_URL_LOOPBACK is for a base URL on this machine/),
    ]);
  });

  it("a registration's bind grace: 180 s by default, never shorter than the settlement lease", () => {
    expect(loadConfig({}).registrationBindGraceMs).toBe(180_000);
    expect(problems({ SETTLEMENT_LEASE_MS: '20000', REGISTRATION_BIND_GRACE_MS: '19999' })).toEqual([
      'REGISTRATION_BIND_GRACE_MS must not be shorter than SETTLEMENT_LEASE_MS',
    ]);
  });

  it('outside production the default stays http://localhost:PORT', () => {
    expect(loadConfig({ PORT: '4000' }).publicBaseUrl).toBe('http://localhost:4000');
  });
});
