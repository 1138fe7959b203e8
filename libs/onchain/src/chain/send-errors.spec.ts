import { JsonRpcProvider } from 'ethers';
import type * as Viem from 'viem' with { 'resolution-mode': 'import' };
import type * as ViemUtils from 'viem/utils' with { 'resolution-mode': 'import' };
import { classifySendError } from './send-errors';

// viem is ESM; jest loads its CommonJS build (as eip4361.spec.ts does).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { NonceTooLowError, RpcRequestError, TransactionExecutionError } = require('viem') as typeof Viem;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { getNodeError } = require('viem/utils') as typeof ViemUtils;

/** The error ethers' JsonRpcProvider makes of a node's answer to eth_sendRawTransaction. */
function ethersError(message: string): Error {
  const provider = new JsonRpcProvider('http://127.0.0.1:1', 84532, { staticNetwork: true });
  const err = provider.getRpcError(
    { method: 'eth_sendRawTransaction', params: ['0x02'], id: 1, jsonrpc: '2.0' },
    { id: 1, error: { code: -32000, message } },
  );
  provider.destroy();
  return err;
}

/** The error viem makes of the same answer (its node errors, wrapped as sendRawTransaction wraps them). */
function viemError(message: string): Error {
  const cause = getNodeError(
    new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32000, message } }),
    {},
  );
  return new TransactionExecutionError(cause, { account: undefined, chain: undefined } as never);
}

const FORMS: [string, ReturnType<typeof classifySendError>][] = [
  ['nonce too low', 'nonce-conflict'],
  ['nonce too low: next nonce 5, tx nonce 4', 'nonce-conflict'],
  ['OldNonce', 'nonce-conflict'],
  ['replacement transaction underpriced', 'nonce-conflict'],
  ['replacement fee too low', 'nonce-conflict'],
  ['ReplacementNotAllowed', 'nonce-conflict'],
  ['already known', 'known'],
  ['transaction already imported', 'known'],
  ['AlreadyKnown', 'known'],
  ['TRANSACTION_ALREADY_KNOWN', 'known'],
  ['known transaction: 0xabc', 'known'],
  ['max fee per gas less than block base fee', 'fee'],
  ['transaction underpriced', 'fee'],
  ['insufficient funds for gas * price + value', 'other'],
];

describe('classifySendError: every form a node refusal comes in', () => {
  it.each(FORMS)('the node saying "%s" (raw JSON-RPC error, ethers and viem alike) is %s', (message, kind) => {
    expect(classifySendError({ code: -32000, message })).toBe(kind);
    expect(classifySendError(ethersError(message))).toBe(kind);
    expect(classifySendError(viemError(message))).toBe(kind);
  });

  it('"unknown transaction" is not "known transaction": never taken for this transaction in the pool', () => {
    expect(classifySendError({ code: -32000, message: 'unknown transaction' })).toBe('other');
    expect(classifySendError(ethersError('unknown transaction'))).toBe('other');
  });

  it("ethers' typed codes and viem's NonceTooLowError say a nonce conflict on their own", () => {
    expect(classifySendError(Object.assign(new Error('nonce has already been used'), { code: 'NONCE_EXPIRED' }))).toBe(
      'nonce-conflict',
    );
    expect(classifySendError(Object.assign(new Error('x'), { code: 'REPLACEMENT_UNDERPRICED' }))).toBe(
      'nonce-conflict',
    );
    expect(classifySendError(new NonceTooLowError())).toBe('nonce-conflict');
    expect(classifySendError(new NonceTooLowError({ nonce: 4 }))).toBe('nonce-conflict');
  });

  it('viem\'s NonceTooLowError for "already known" is this transaction in the pool, never a conflict', () => {
    const err = viemError('already known');
    expect(JSON.stringify([(err as { cause?: { name?: string } }).cause?.name])).toContain('NonceTooLowError');
    expect(classifySendError(err)).toBe('known');
  });

  it('a node that cannot be reached is neither', () => {
    expect(
      classifySendError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })),
    ).toBe('other');
    expect(classifySendError(null)).toBe('other');
  });
});
