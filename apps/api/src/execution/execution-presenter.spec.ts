import type { Response } from 'express';
import type { AppConfig } from '@app/config';
import type { ExecutionEntity, GetExecution, ReceiptSalts } from '@app/execution';
import { ExecutionPresenter } from './execution-presenter';

/** A response that keeps its status and headers. */
function fakeResponse() {
  const headers: Record<string, string> = {};
  const res = {
    statusCode: 200,
    status: (code: number) => ((res.statusCode = code), res),
    setHeader: (name: string, value: string) => void (headers[name] = value),
    set: (h: Record<string, string> | string, v?: string) =>
      void Object.assign(headers, typeof h === 'string' ? { [h]: v } : h),
  };
  return { res, headers };
}

const completed = (o: Partial<ExecutionEntity> = {}) =>
  ({
    id: 'req_1',
    status: 'completed',
    settlementStatus: 'settled',
    paymentId: 'pay_1',
    receipt: null,
    ...o,
  }) as ExecutionEntity;

/** Review M3: reading the settlement of a sync paid run whose payment was written must never invite paying again. */
describe('ExecutionPresenter, when the settlement cannot be read back', () => {
  const config = { publicBaseUrl: 'https://agora.test', settlementMode: 'local' } as unknown as AppConfig;
  const presenter = (settlementOf: () => Promise<never>) =>
    new ExecutionPresenter({ settlementOf } as unknown as GetExecution, config, {} as ReceiptSalts);
  const lost = () => Promise.reject(new Error('Connection terminated unexpectedly'));

  it('answers the unconfirmed 202 for a paid run when Postgres fails transiently', async () => {
    const { res, headers } = fakeResponse();
    const out = await presenter(lost).present(
      { execution: completed(), settlement: null },
      res as unknown as Response,
      true,
    );
    expect(res.statusCode).toBe(202);
    expect(out).toMatchObject({
      requestId: 'req_1',
      status: 'pending',
      statusUrl: 'https://agora.test/api/v1/execute/req_1',
      settlement: { status: 'settled', txHash: null },
    });
    expect(headers.Location).toBe('https://agora.test/api/v1/execute/req_1');
  });

  it('still throws for a run with no payment of its own, or an error that is not transient', async () => {
    const { res } = fakeResponse();
    const sub = { execution: completed({ paymentId: null }), settlement: null };
    await expect(presenter(lost).present(sub, res as unknown as Response, true)).rejects.toThrow(/terminated/);
    const bug = () => Promise.reject(new TypeError('boom'));
    const paid = { execution: completed(), settlement: null };
    await expect(presenter(bug).present(paid, res as unknown as Response, true)).rejects.toThrow('boom');
  });
});
