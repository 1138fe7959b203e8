import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { generateKeyPairSync, randomUUID, verify } from 'node:crypto';
import { keccak256, toUtf8Bytes, verifyTypedData } from 'ethers';
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from '@x402/core/schemas';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '@app/x402';

export interface FacilitatorCall {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/**
 * A facilitator speaking the x402 v2 facilitator API on loopback. It checks request bodies with
 * x402's own v2 schemas and the signature with ethers, and can be told to reject or to fail.
 * With `auth` set (a header and its value, or a check of the request's headers) it answers 401 to a
 * call without it, as a hosted facilitator does.
 */
export class TestFacilitator {
  readonly calls: FacilitatorCall[] = [];
  verify: 'ok' | { invalidReason: string } = 'ok';
  settle: 'ok' | 'fail' | 'http-500' = 'ok';
  auth: { header: string; value: string } | ((req: IncomingMessage) => boolean) | null = null;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}');
        // Served under any prefix (a hosted facilitator's base path): the last segment names the call.
        const path = `/${(req.url ?? '').split('/').pop()}`;
        this.calls.push({ path, headers: req.headers, body });
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        if (
          this.auth &&
          !(typeof this.auth === 'function'
            ? this.auth(req)
            : req.headers[this.auth.header.toLowerCase()] === this.auth.value)
        ) {
          return reply(401, { error: 'unauthorized' });
        }
        const schemaOk =
          body.x402Version === 2 &&
          PaymentPayloadV2Schema.safeParse(body.paymentPayload).success &&
          PaymentRequirementsV2Schema.safeParse(body.paymentRequirements).success;
        if (!schemaOk) return reply(400, { error: 'invalid request body' });
        const auth = body.paymentPayload.payload.authorization;
        const req0 = body.paymentRequirements;
        const signer = verifyTypedData(
          {
            name: req0.extra.name,
            version: req0.extra.version,
            chainId: Number(req0.network.split(':')[1]),
            verifyingContract: req0.asset,
          },
          TRANSFER_WITH_AUTHORIZATION_TYPES,
          auth,
          body.paymentPayload.payload.signature,
        );
        if (path === '/verify') {
          if (signer.toLowerCase() !== auth.from.toLowerCase())
            return reply(200, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' });
          if (this.verify !== 'ok') return reply(200, { isValid: false, ...this.verify, payer: auth.from });
          return reply(200, { isValid: true, payer: auth.from });
        }
        if (path === '/settle') {
          if (this.settle === 'http-500') return reply(500, { error: 'boom' });
          if (this.settle === 'fail')
            return reply(200, {
              success: false,
              errorReason: 'invalid_transaction_state',
              transaction: '',
              network: req0.network,
            });
          return reply(200, {
            success: true,
            transaction: keccak256(toUtf8Bytes(`settled:${auth.nonce}`)),
            network: req0.network,
            payer: auth.from,
          });
        }
        reply(404, { error: 'not found' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * A CDP API key made here (Ed25519, in CDP's base64 seed+public form) and the check a hosted
 * facilitator makes: a Bearer JWT signed by it, for this key, bound to the call's method, host and path.
 */
export function cdpKey(): { id: string; secret: string; check: (req: IncomingMessage) => boolean } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const id = `organizations/test/apiKeys/${randomUUID()}`;
  const secret = Buffer.concat([Buffer.from(jwk.d!, 'base64url'), Buffer.from(jwk.x!, 'base64url')]).toString('base64');
  const check = (req: IncomingMessage): boolean => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const [header, claims, signature] = token?.split('.') ?? [];
    if (!signature || !verify(null, Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url')))
      return false;
    const c = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
    return c.sub === id && c.exp > Date.now() / 1000 && c.uris?.[0] === `${req.method} ${req.headers.host}${req.url}`;
  };
  return { id, secret, check };
}
