import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Wallet } from 'ethers';
import { AgoraClient } from './client';
import { AgoraError } from './errors';

/** A registration answered 202 (its fee moved, its agent unconfirmed) is not taken for an agent (a real HTTP server). */
describe('AgoraClient.registerAgent answered 202', () => {
  let server: Server;
  let baseUrl: string;
  let answer: { status: number; data: unknown };

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: true, data: answer.data }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const input = { name: 'echo', endpoints: { execution: 'https://agent.example/run' }, capabilities: [] } as never;

  it('throws REGISTRATION_PENDING with the status URL and the agent id to expect', async () => {
    const pending = {
      status: 'pending',
      agentId: '7f1c5a52-3c8e-4a57-9d2a-0f6d3b1e9a10',
      statusUrl: '/api/v1/payments/status/0xabc',
      settlement: { status: 'settled', txHash: '0xabc' },
    };
    answer = { status: 202, data: pending };
    const client = new AgoraClient({ baseUrl, wallet: Wallet.createRandom().privateKey });
    const err = (await client.registerAgent(input).catch((e: unknown) => e)) as AgoraError;
    expect(err).toBeInstanceOf(AgoraError);
    expect([err.code, err.status, err.details]).toEqual(['REGISTRATION_PENDING', 202, pending]);
  });

  it('still answers a registered agent as the agent', async () => {
    const agent = { id: '7f1c5a52-3c8e-4a57-9d2a-0f6d3b1e9a10', status: 'active', name: 'echo' };
    answer = { status: 201, data: agent };
    const client = new AgoraClient({ baseUrl, wallet: Wallet.createRandom().privateKey });
    await expect(client.registerAgent(input)).resolves.toEqual(agent);
  });
});
