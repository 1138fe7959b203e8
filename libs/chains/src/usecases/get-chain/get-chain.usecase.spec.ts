import { Test } from '@nestjs/testing';
import { ExecuteTargetReader } from '@app/agents';
import { PayerRead } from '@app/auth';
import { AppException, Clock, FixedClock } from '@app/common';
import { ReplicaReads } from '@app/database';
import { PaymentsRepository } from '@app/payments';
import { ChainReadScope } from '../../chain-read-scope';
import { ChainTokenPayload, ChainTokens } from '../../chain-tokens';
import { ChainNodeRow, ChainRow, ChainsRepository } from '../../chains.repository';
import { GetChain } from './get-chain.usecase';

const CHAIN = '0f0e0d0c-0b0a-4909-8807-060504030201';
const AT = new Date('2026-12-01T10:00:00Z');
const node = (executionId: string, parent: string | null, depth: number, status: ChainNodeRow['status']) =>
  ({
    executionId,
    chainId: CHAIN,
    parentExecutionId: parent,
    agentId: `a${depth}`,
    capabilityId: 'cap',
    depth,
    spanId: 'b7ad6b7169203331',
    reserved: 0n,
    cost: null,
    status,
    transactionId: null,
    executionTimeMs: null,
    startedAt: AT,
    completedAt: status === 'running' ? null : AT,
  }) satisfies ChainNodeRow;
const chain = {
  id: CHAIN,
  rootExecutionId: 'req_root',
  rootAgentId: 'a0',
  rootWallet: '0x' + 'ab'.repeat(20),
  paymentId: 'pay_1',
  status: 'running',
  available: 0n,
  startedAt: AT,
  expiresAt: new Date(AT.getTime() + 300_000),
  heldUntil: null,
  completedAt: null,
} as unknown as ChainRow;

/** The holder (req_mid) has ended on the primary; a lagging replica still has it running. */
const PRIMARY = [node('req_root', null, 0, 'running'), node('req_mid', 'req_root', 1, 'completed')];
const REPLICA = [node('req_root', null, 0, 'running'), node('req_mid', 'req_root', 1, 'running')];
const claims = { cid: CHAIN, ptx: 'req_mid', d: 1 } as unknown as ChainTokenPayload;

describe('GetChain: a chain token read is scoped on the primary (issue 52)', () => {
  const replicaPool = { query: jest.fn() };
  const primaryPool = { query: jest.fn() };
  const repo = {
    reader: primaryPool,
    find: jest.fn(async () => chain),
    nodes: jest.fn(async (_id: string, sql: unknown) => (sql === replicaPool ? REPLICA : PRIMARY)),
  };
  let getChain: GetChain;

  beforeAll(async () => {
    const mod = await Test.createTestingModule({
      providers: [
        GetChain,
        ChainReadScope,
        { provide: ChainsRepository, useValue: repo },
        { provide: PaymentsRepository, useValue: { get: async () => null } },
        { provide: ExecuteTargetReader, useValue: { names: async () => new Map() } },
        { provide: ChainTokens, useValue: { verify: () => claims } },
        { provide: Clock, useValue: new FixedClock(AT) },
        { provide: ReplicaReads, useValue: { pooled: replicaPool } },
        { provide: PayerRead, useValue: { reads: async () => false, verify: async () => undefined } },
      ],
    }).compile();
    getChain = mod.get(GetChain);
  });
  beforeEach(() => jest.clearAllMocks());

  const read = (reader: Record<string, unknown>) =>
    getChain.execute(CHAIN, { payment: null, ...reader } as unknown as Parameters<GetChain['execute']>[1]);

  it("a token whose holder ended on the primary reads nothing, though the replica's rows still have it running", async () => {
    const err = await read({ chainToken: 'token' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppException);
    expect((err as AppException).details).toMatchObject({ reason: 'holder_ended' });
    for (const call of [...repo.find.mock.calls, ...repo.nodes.mock.calls] as unknown[][])
      expect(call[1]).toBe(primaryPool);
  });

  it('a read without a token (no request id shown) stays on the replica', async () => {
    const view = await read({});
    expect(view.tree?.requestId).toBeNull();
    expect(view.tree?.children[0].requestId).toBeNull();
    for (const call of [...repo.find.mock.calls, ...repo.nodes.mock.calls] as unknown[][])
      expect(call[1]).toBe(replicaPool);
  });
});
