import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { keccak256, toUtf8Bytes, verifyTypedData } from 'ethers';
import { PaymentPayloadSchema, PaymentRequirementsSchema } from 'x402/types';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '@app/payments';

export interface FacilitatorCall {
  path: string;
  body: any;
}

/**
 * A facilitator speaking the x402 facilitator API on loopback. It checks request bodies with
 * x402's own schemas and the signature with ethers, and can be told to reject or to fail.
 */
export class TestFacilitator {
  readonly calls: FacilitatorCall[] = [];
  verify: 'ok' | { invalidReason: string } = 'ok';
  settle: 'ok' | 'fail' | 'http-500' = 'ok';
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw || '{}');
        this.calls.push({ path: req.url ?? '', body });
        const reply = (status: number, json: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(json));
        };
        const schemaOk = PaymentPayloadSchema.safeParse(body.paymentPayload).success && PaymentRequirementsSchema.safeParse(body.paymentRequirements).success;
        if (!schemaOk) return reply(400, { error: 'invalid request body' });
        const auth = body.paymentPayload.payload.authorization;
        const req0 = body.paymentRequirements;
        const signer = verifyTypedData(
          { name: req0.extra.name, version: req0.extra.version, chainId: 84532, verifyingContract: req0.asset },
          TRANSFER_WITH_AUTHORIZATION_TYPES,
          auth,
          body.paymentPayload.payload.signature,
        );
        if (req.url === '/verify') {
          if (signer.toLowerCase() !== auth.from.toLowerCase()) return reply(200, { isValid: false, invalidReason: 'invalid_exact_evm_payload_signature' });
          if (this.verify !== 'ok') return reply(200, { isValid: false, ...this.verify, payer: auth.from });
          return reply(200, { isValid: true, payer: auth.from });
        }
        if (req.url === '/settle') {
          if (this.settle === 'http-500') return reply(500, { error: 'boom' });
          if (this.settle === 'fail') return reply(200, { success: false, errorReason: 'invalid_transaction_state', transaction: '', network: req0.network });
          return reply(200, { success: true, transaction: keccak256(toUtf8Bytes(`settled:${auth.nonce}`)), network: req0.network, payer: auth.from });
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
