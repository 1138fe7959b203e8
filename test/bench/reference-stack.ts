/* The public x402 reference stack as a benchmark scenario: what a team gets by deploying the
   coinbase/x402 TypeScript examples unchanged, with our agent behind it.
     facilitator  @x402/core x402Facilitator + @x402/evm exact scheme, an Express app with POST /verify,
                  POST /settle and GET /supported as examples/typescript/facilitator does (minus the
                  console.log lifecycle hooks and the SVM scheme), signing with a viem wallet client
     server       @x402/express paymentMiddleware in front of POST /execute, talking to the facilitator
                  over HTTP (HTTPFacilitatorClient); the handler proxies the JSON body to the agent
     client       @x402/core x402Client + @x402/evm exact client scheme (what @x402/fetch wraps), used to
                  pre-sign payment headers for autocannon
   Per request the middleware (v2, flow "authorization", the default for EIP-3009 tokens) calls the
   facilitator's /verify before the handler, buffers the handler's response, then calls /settle, which
   sends transferWithAuthorization and waits for its receipt, and only then answers: settlement is
   synchronous, one on-chain transaction per request. */
import express from 'express';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { request } from 'undici';
import type * as Viem from 'viem' with { 'resolution-mode': 'import' };
import type * as ViemAccounts from 'viem/accounts' with { 'resolution-mode': 'import' };
import type * as ViemChains from 'viem/chains' with { 'resolution-mode': 'import' };
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { x402Facilitator } from '@x402/core/facilitator';
import { HTTPFacilitatorClient } from '@x402/core/server';
import { Network, PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme as ExactEvmClientScheme } from '@x402/evm/exact/client';
import { registerExactEvmScheme } from '@x402/evm/exact/facilitator';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { paymentMiddleware, x402ResourceServer } from '@x402/express';

export interface RunningHttp {
  url: string;
  close(): Promise<void>;
}

type Hex = `0x${string}`;

// viem's type declarations are ES modules, which this CommonJS tree (module node16) may import only as types.
/* eslint-disable @typescript-eslint/no-require-imports */
const { createWalletClient, defineChain, http, nonceManager, parseUnits, publicActions } =
  require('viem') as typeof Viem;
const { privateKeyToAccount } = require('viem/accounts') as typeof ViemAccounts;
const { baseSepolia } = require('viem/chains') as typeof ViemChains;
/* eslint-enable @typescript-eslint/no-require-imports */

/** The name of the payment header (v2; v1 clients send X-PAYMENT, which the middleware also reads). */
export const PAYMENT_HEADER = 'PAYMENT-SIGNATURE';

/** The EIP-712 domain of the project's TestUSDC (contracts/TestUSDC.sol), as of Circle's USDC on Base Sepolia. */
const TOKEN_DOMAIN = { name: 'USDC', version: '2' };
const TOKEN_DECIMALS = 6;

async function listen(app: express.Express): Promise<RunningHttp> {
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The examples use viem's baseSepolia (84532, as our local chain is): its 2 s block time gives a 1 s receipt polling interval. */
function viemChain(chainId: number, rpcUrl: string): Viem.Chain {
  if (chainId === baseSepolia.id) return baseSepolia;
  return defineChain({
    id: chainId,
    name: `eip155:${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** The reference facilitator (examples/typescript/facilitator), EVM `exact` on eip155:<chainId>, on 127.0.0.1. */
export async function startReferenceFacilitator(opts: {
  rpcUrl: string;
  chainId: number;
  privateKey: string;
  /** viem's receipt polling interval; unset, the chain's default (1 s on baseSepolia), as the examples run it. */
  pollingMs?: number;
}): Promise<RunningHttp> {
  const network = `eip155:${opts.chainId}` as Network;
  // As the example, plus viem's nonce manager so that concurrent settlements do not reuse a nonce.
  const evmAccount = privateKeyToAccount(opts.privateKey as Hex, { nonceManager });
  const viemClient = createWalletClient({
    account: evmAccount,
    chain: viemChain(opts.chainId, opts.rpcUrl),
    transport: http(opts.rpcUrl),
    ...(opts.pollingMs ? { pollingInterval: opts.pollingMs } : {}),
  }).extend(publicActions);

  const evmSigner = toFacilitatorEvmSigner({
    getCode: (args: { address: Hex }) => viemClient.getCode(args),
    address: evmAccount.address,
    readContract: (args: { address: Hex; abi: readonly unknown[]; functionName: string; args?: readonly unknown[] }) =>
      viemClient.readContract({ ...args, args: args.args || [] }),
    verifyTypedData: (args: {
      address: Hex;
      domain: Record<string, unknown>;
      types: Record<string, unknown>;
      primaryType: string;
      message: Record<string, unknown>;
      signature: Hex;
    }) => viemClient.verifyTypedData(args as any),
    writeContract: (args: { address: Hex; abi: readonly unknown[]; functionName: string; args: readonly unknown[] }) =>
      viemClient.writeContract({ ...args, args: args.args || [] }),
    sendTransaction: (args: { to: Hex; data: Hex }) => viemClient.sendTransaction(args),
    waitForTransactionReceipt: (args: { hash: Hex }) => viemClient.waitForTransactionReceipt(args),
  });

  const facilitator = new x402Facilitator();
  registerExactEvmScheme(facilitator, { signer: evmSigner, networks: network });

  const app = express();
  app.use(express.json());

  app.post('/verify', async (req, res) => {
    try {
      const { paymentPayload, paymentRequirements } = req.body as {
        paymentPayload: PaymentPayload;
        paymentRequirements: PaymentRequirements;
      };
      if (!paymentPayload || !paymentRequirements) {
        res.status(400).json({ error: 'Missing paymentPayload or paymentRequirements' });
        return;
      }
      const response: VerifyResponse = await facilitator.verify(paymentPayload, paymentRequirements);
      res.json(response);
    } catch (error) {
      console.error('Verify error:', error);
      res.status(500).json({ error: error instanceof Error ? error.message : 'Unknown error' });
    }
  });

  app.post('/settle', async (req, res) => {
    try {
      const { paymentPayload, paymentRequirements } = req.body;
      if (!paymentPayload || !paymentRequirements) {
        res.status(400).json({ error: 'Missing paymentPayload or paymentRequirements' });
        return;
      }
      const response: SettleResponse = await facilitator.settle(
        paymentPayload as PaymentPayload,
        paymentRequirements as PaymentRequirements,
      );
      res.json(response);
    } catch (error) {
      console.error('Settle error:', error);
      if (error instanceof Error && error.message.includes('Settlement aborted:')) {
        res.json({
          success: false,
          errorReason: error.message.replace('Settlement aborted: ', ''),
          network: req.body?.paymentPayload?.network || 'unknown',
        } as SettleResponse);
        return;
      }
      res.status(500).json({ error: error instanceof Error ? error.message : 'Unknown error' });
    }
  });

  app.get('/supported', async (_req, res) => {
    try {
      res.json(facilitator.getSupported());
    } catch (error) {
      console.error('Supported error:', error);
      res.status(500).json({ error: error instanceof Error ? error.message : 'Unknown error' });
    }
  });

  return listen(app);
}

/**
 * The reference resource server: @x402/express's paymentMiddleware protecting POST /execute at `price`
 * (decimal, e.g. '0.011') of the 6-decimal token at `asset`, which forwards the paid JSON body to `agentUrl`.
 * `maxTimeoutSeconds` (default 300, the library's) bounds how long a pre-signed header stays valid.
 */
export async function startReferenceServer(opts: {
  facilitatorUrl: string;
  agentUrl: string;
  payTo: string;
  asset: string;
  chainId: number;
  price: string;
  maxTimeoutSeconds?: number;
}): Promise<RunningHttp> {
  const network = `eip155:${opts.chainId}` as Network;
  const facilitatorClient = new HTTPFacilitatorClient({ url: opts.facilitatorUrl });
  const resourceServer = new x402ResourceServer(facilitatorClient).register(network, new ExactEvmServerScheme());

  const app = express();
  app.use(express.json());
  app.use(
    paymentMiddleware(
      {
        'POST /execute': {
          accepts: {
            scheme: 'exact',
            network,
            payTo: opts.payTo,
            // Not a default asset of the network: an AssetAmount in atomic units, with the token's EIP-712 domain in `extra`.
            price: {
              amount: parseUnits(opts.price, TOKEN_DECIMALS).toString(),
              asset: opts.asset,
              extra: { ...TOKEN_DOMAIN },
            },
            ...(opts.maxTimeoutSeconds ? { maxTimeoutSeconds: opts.maxTimeoutSeconds } : {}),
          },
          description: 'Execute an agent capability',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );

  app.post('/execute', async (req, res) => {
    const { statusCode, body } = await request(opts.agentUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(req.body),
    });
    res.status(statusCode).json(await body.json());
  });

  return listen(app);
}

/**
 * `count` payment headers for POST `serverUrl`/execute, signed by the reference client libraries
 * (round robin over `wallets`, private keys), each with a fresh EIP-3009 nonce: fetches the 402
 * once for the requirements, then does what @x402/fetch does on a 402 without sending the request.
 */
export async function referencePaymentHeaders(opts: {
  serverUrl: string;
  wallets: string[];
  count: number;
}): Promise<{ header: string; value: string }[]> {
  const res = await request(`${opts.serverUrl}/execute`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const text = await res.body.text();
  if (res.statusCode !== 402)
    throw new Error(`expected 402 from ${opts.serverUrl}/execute, got ${res.statusCode}: ${text}`);
  const getHeader = (name: string) => {
    const v = res.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  };
  const paymentRequired = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse(
    getHeader,
    text ? JSON.parse(text) : undefined,
  );

  const clients = opts.wallets.map((key) => {
    const client = new x402Client();
    for (const accept of paymentRequired.accepts)
      client.register(accept.network, new ExactEvmClientScheme(privateKeyToAccount(key as Hex)));
    // By default the client pays only the networks' default assets (Circle's USDC), capped at $1.
    client.setSpendControls({
      allowedAssets: paymentRequired.accepts.map((a) => ({ network: a.network, asset: a.asset })),
    });
    return new x402HTTPClient(client);
  });

  const out: { header: string; value: string }[] = [];
  for (let i = 0; i < opts.count; i++) {
    const httpClient = clients[i % clients.length];
    const payload = await httpClient.createPaymentPayload(paymentRequired);
    const [[header, value]] = Object.entries(httpClient.encodePaymentSignatureHeader(payload));
    out.push({ header, value });
  }
  return out;
}
