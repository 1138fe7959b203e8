#!/usr/bin/env node
/* A local EVM chain for development and tests: anvil (from npm @foundry-rs/anvil) with chain id
   84532, so every x402 client treats it as base-sepolia, and the project's TestUSDC deployed with
   the EIP-712 name "USDC". `node scripts/local-chain.js up [port]` runs it in the foreground,
   funds demo wallets and prints the environment the api and worker need. */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { ContractFactory, JsonRpcProvider, HDNodeWallet, Mnemonic } = require('ethers');
const { build } = require('../contracts/build');

const CHAIN_ID = 84532;
/** anvil's well-known development mnemonic: account 0 is the relayer and platform wallet. */
const MNEMONIC = 'test test test test test test test test test test test junk';
/** Deploys the contracts and mints: not account 0, whose nonces belong to the platform's sender alone. */
const DEPLOYER = 10;

function anvilBinary() {
  const platform = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[process.platform];
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch];
  const pkg = require.resolve(`@foundry-rs/anvil-${platform}-${arch}/package.json`);
  const bin = path.join(path.dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  fs.chmodSync(bin, 0o755);
  return bin;
}

function account(index) {
  return HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), `m/44'/60'/0'/0/${index}`);
}

async function waitForRpc(url, child, timeoutMs = 15000) {
  const provider = new JsonRpcProvider(url, CHAIN_ID, { staticNetwork: true, cacheTimeout: -1 });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}`);
    try {
      await provider.getBlockNumber();
      return provider;
    } catch {
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${url}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Resolves with anvil's RPC URL once it says where it listens ("Listening on 127.0.0.1:40861"):
 * with `--port 0` the OS picks a free port when anvil binds, so two chains (two test files in
 * parallel jest workers) never ask for the same one. Output is forwarded unless `quiet`.
 */
function listeningUrl(child, quiet, timeoutMs = 15000) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => done(new Error(`anvil did not say where it listens within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onData = (chunk) => {
      if (!quiet) process.stdout.write(chunk);
      if (seen === null) return;
      seen += chunk.toString();
      const m = /Listening on (\S+)/.exec(seen);
      if (m) done(null, `http://${m[1]}`);
    };
    const onExit = (code) => done(new Error(`anvil exited with code ${code} before listening`));
    const done = (err, url) => {
      if (seen === null) return;
      seen = null;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.off('error', done);
      if (err) reject(err);
      else resolve(url);
    };
    // Keeps reading after the line (anvil logs every RPC call): a full pipe would stall it.
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    child.once('error', done);
  });
}

/** A contract of contracts/ compiled by npm solc: {abi, bytecode}. */
function artifact(name) {
  return JSON.parse(
    fs.readFileSync(
      build().find((o) => o.endsWith(`${name}.json`)),
      'utf8',
    ),
  );
}

/**
 * Starts anvil on `port` (0: one the OS picks), deploys TestUSDC and the SettlementBatcher.
 * `blockTime` (seconds): mine on a timer instead of on every transaction (automine).
 */
async function startChain({ port = 0, quiet = true, blockTime } = {}) {
  const args = [
    '--chain-id',
    String(CHAIN_ID),
    '--port',
    String(port),
    '--host',
    '127.0.0.1',
    '--mnemonic',
    MNEMONIC,
    '--accounts',
    String(DEPLOYER + 1),
  ];
  if (blockTime) args.push('--block-time', String(blockTime));
  // Not --silent: it also hides the line that says which port anvil got.
  const child = spawn(anvilBinary(), args, {
    stdio: ['ignore', 'pipe', quiet ? 'ignore' : 'inherit'],
  });
  const rpcUrl = await listeningUrl(child, quiet).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  const provider = await waitForRpc(rpcUrl, child);
  const deployer = account(DEPLOYER).connect(provider);
  const usdc = artifact('TestUSDC');
  const token = await new ContractFactory(usdc.abi, usdc.bytecode, deployer).deploy('USDC', { nonce: 0 });
  const batcherContract = artifact('SettlementBatcher');
  const batcher = await new ContractFactory(batcherContract.abi, batcherContract.bytecode, deployer).deploy({
    nonce: 1,
  });
  await Promise.all([token.waitForDeployment(), batcher.waitForDeployment()]);
  const usdcAddress = await token.getAddress();
  const batcherAddress = await batcher.getAddress();
  return {
    rpcUrl,
    chainId: CHAIN_ID,
    usdcAddress,
    batcherAddress,
    provider,
    token: token.connect(deployer),
    abi: usdc.abi,
    platform: account(0),
    account,
    async mint(to, micros) {
      const tx = await token.connect(deployer).mint(to, micros);
      await tx.wait();
    },
    async balanceOf(address) {
      return BigInt(await token.balanceOf(address));
    },
    stop() {
      return new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

module.exports = { startChain, account, CHAIN_ID, MNEMONIC };

if (require.main === module && process.argv[2] === 'up') {
  (async () => {
    const chain = await startChain({
      port: Number(process.argv[3] || 8545),
      blockTime: process.env.ANVIL_BLOCK_TIME ? Number(process.env.ANVIL_BLOCK_TIME) : undefined,
    });
    const demo = [1, 2, 3, 4, 5].map(account);
    for (const w of demo) await chain.mint(w.address, 1_000_000_000n); // 1,000 USDC each
    const env = {
      SETTLEMENT_MODE: 'evm',
      EVM_RPC_URL: chain.rpcUrl,
      EVM_CHAIN_ID: String(CHAIN_ID),
      USDC_ADDRESS: chain.usdcAddress,
      SETTLEMENT_BATCHER_ADDRESS: chain.batcherAddress,
      RELAYER_PRIVATE_KEY: chain.platform.privateKey,
      PLATFORM_WALLET: chain.platform.address,
      PAYMENT_NETWORKS: 'base-sepolia',
      // Fresh seeds for this chain: outside local settlement the public development seeds are refused.
      PLATFORM_SIGNING_SEED: randomBytes(32).toString('hex'),
      CHAIN_TOKEN_SEEDS: randomBytes(32).toString('hex'),
    };
    fs.mkdirSync('.tmp', { recursive: true });
    fs.writeFileSync(
      '.tmp/chain.env',
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n') + '\n',
    );
    process.stdout.write(`local chain ${chain.rpcUrl} (chain id ${CHAIN_ID}), TestUSDC at ${chain.usdcAddress}\n`);
    process.stdout.write(
      `demo wallets (1,000 USDC each):\n${demo.map((w) => `  ${w.address}  ${w.privateKey}`).join('\n')}\n`,
    );
    process.stdout.write(`environment written to .tmp/chain.env\n`);
    const stop = () => chain.stop().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  })().catch((err) => {
    process.stderr.write(`local chain: ${err.stack || err}\n`);
    process.exit(1);
  });
}
