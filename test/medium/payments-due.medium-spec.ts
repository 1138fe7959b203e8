import { randomBytes } from 'node:crypto';
import { PaymentsRepository } from '@app/payments';
import { Domain, startDomain } from '../support/medium';

const hex = (bytes: number) => `0x${randomBytes(bytes).toString('hex')}`;
const MINUTE = 60_000;

/**
 * Issue 53 (review L4): what the worker's sweeper finds of payments, and which of it was lost. A failed
 * settlement's next attempt and a sent transaction checked again are due by the schedule the sweeper
 * itself drives (`scheduled`: enqueued, never counted by agora_sweeper_recoveries_total); a settling
 * lease that lapsed (its process died), a settled payment never linked, and a registration reserved by a
 * request that never settled it are lost work.
 */
describe('PaymentsRepository.due (medium)', () => {
  let domain: Domain;
  let repo: PaymentsRepository;
  const now = new Date();
  const past = new Date(now.getTime() - MINUTE);

  beforeAll(async () => {
    domain = await startDomain();
    repo = domain.get(PaymentsRepository);
  });
  afterAll(async () => {
    await domain.close();
  });

  /** A payment row of `purpose` created a minute ago; its state moved by the repository's own methods. */
  async function reserved(purpose: 'execution' | 'registration'): Promise<string> {
    const id = `pay_${randomBytes(8).toString('hex')}`;
    await domain.ds.query(
      `INSERT INTO payments (id, x402_version, network, chain_id, asset, payer, pay_to, nonce, value, valid_after, valid_before,
                             signature, header_hash, purpose, status, created_at)
       VALUES ($1, 2, 'base-sepolia', 84532, $2, $3, $2, $4, 100000, 0, 9999999999, '0xsig', 'hh', $5, 'reserved', $6)`,
      [id, hex(20), hex(20), hex(32), purpose, past],
    );
    return id;
  }
  async function settling(purpose: 'execution' | 'registration'): Promise<string> {
    const id = await reserved(purpose);
    expect(await repo.claimSettling(id, past, past)).toEqual({ attempts: 1 });
    return id;
  }
  const dueOf = async (purpose: 'execution' | 'registration') =>
    new Map((await repo.due(now, new Date(now.getTime() - 1_000), 500, purpose)).map((p) => [p.id, p.scheduled]));

  it.each(['execution', 'registration'] as const)('%s: scheduled retries apart from lost work', async (purpose) => {
    const failed = await settling(purpose);
    await repo.markFailed(failed, past, 'rpc down');
    const undecided = await settling(purpose);
    await repo.markUndecided(undecided, past, 'sent, not mined');
    const lapsed = await settling(purpose);
    const notYet = await settling(purpose);
    await repo.markFailed(notYet, new Date(now.getTime() + MINUTE), 'rpc down');

    const due = await dueOf(purpose);
    expect([due.get(failed), due.get(undecided), due.get(lapsed), due.has(notYet)]).toEqual([true, true, false, false]);
  });

  it('a registration reserved and never settled is lost work past the grace; an execution one is not its business', async () => {
    const registration = await reserved('registration');
    const execution = await reserved('execution');
    expect((await dueOf('registration')).get(registration)).toBe(false);
    expect((await dueOf('execution')).has(execution)).toBe(false);
    const young = await repo.due(now, new Date(past.getTime() - MINUTE), 500, 'registration');
    expect(young.map((p) => p.id)).not.toContain(registration);
  });
});
