import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AppException } from '@app/common';
import { AppConfig } from '@app/config';
import { isTransientDatabaseError } from '@app/database';
import { ChainView } from '@app/chains';
import { ExecutionEntity, ExecutionOutcome, GetExecution, ReceiptSalts, Settlement } from '@app/execution';
import { hasSaltedHashes, isLivemode } from '@app/x402';
import { receiptHeaders } from '../http/x402-http';
import { AsyncAcceptedResponse, ExecutionResponse, toExecutionResponse } from './dto/execute.dto';

/** The salt of the receipt in the same answer (its payer's only), for clients that read headers. */
export const RECEIPT_SALT_HEADER = 'X-Receipt-Salt';

/** The HTTP answer of an execution, the same on every execute route. */
@Injectable()
export class ExecutionPresenter {
  readonly livemode: boolean;

  constructor(
    private readonly getUseCase: GetExecution,
    private readonly config: AppConfig,
    private readonly salts: ReceiptSalts,
  ) {
    this.livemode = isLivemode(config);
  }

  /**
   * Maps an execution to the HTTP answer: 202 while pending (always for an async request, and for an
   * unconfirmed outcome), 502/504 for failures, output once settled (unless `withOutput` is false: a retry
   * sent without the payment header).
   */
  async present(
    outcome: ExecutionOutcome,
    res: Response,
    sync: boolean,
    chain?: ChainView,
    withOutput = true,
  ): Promise<ExecutionResponse | AsyncAcceptedResponse> {
    const e = outcome.execution;
    // An async request is answered 202 with where to read it, the first time and on every replay
    // (an idempotency key or payment identifier answers the same bytes, whatever the run did since).
    // So is a paid run whose end could not be recorded or read back (its payment written): with what is
    // known of the payment, never a 503 or 402 that would have its client pay again.
    if (!sync || outcome.unconfirmed) return this.accepted(e, res, outcome.unconfirmed, chain);
    if (e.status === 'pending') {
      res.status(202);
      return toExecutionResponse(e, { txHash: null, refund: null }, false, this.livemode);
    }
    const inChain = chain ? { chain: { chainId: chain.chainId, remainingBudget: chain.remainingBudget } } : {};
    if (e.status === 'failed') {
      throw new AppException('EXECUTION_FAILED', 'The agent failed; nothing was charged', {
        requestId: e.id,
        agentError: e.agentError ?? 'unknown',
        ...inChain,
      });
    }
    if (e.status === 'timeout') {
      throw new AppException('EXECUTION_TIMEOUT', 'The agent did not answer in time; nothing was charged', {
        requestId: e.id,
        agentError: e.agentError ?? 'timeout',
        ...inChain,
      });
    }
    let known = outcome.settlement;
    try {
      known ??= await this.getUseCase.settlementOf(e);
    } catch (err) {
      // Its payment written (it may have moved): a database failure reading it back is the charge's
      // unconfirmed 202 (read by the request id later), never a 503 that would have its client pay again.
      if (e.paymentId && isTransientDatabaseError(err)) return this.accepted(e, res, { txHash: null });
      throw err;
    }
    const settlement = this.salted(e, known);
    // The receipt names the payer and hashes of input and output: for the payer's proof only (its salt too).
    if (withOutput) res.set(receiptHeaders(settlement.receipt, settlement.signed));
    if (withOutput && settlement.receiptSalt) res.set(RECEIPT_SALT_HEADER, settlement.receiptSalt);
    return { ...toExecutionResponse(e, settlement, withOutput, this.livemode), ...(chain ? { chain } : {}) };
  }

  /** 202 with where to read the execution; for an unconfirmed outcome, what is known of its payment. */
  private accepted(e: ExecutionEntity, res: Response, unconfirmed: ExecutionOutcome['unconfirmed'], chain?: ChainView) {
    res.status(202);
    const statusUrl = `${this.config.publicBaseUrl}/api/v1/execute/${e.id}`;
    res.setHeader('Location', statusUrl);
    const accepted = { jobId: e.id, requestId: e.id, status: 'pending', statusUrl, livemode: this.livemode };
    if (!unconfirmed) return accepted;
    const { txHash } = unconfirmed;
    const settlement = { status: e.settlementStatus, txHash, livemode: this.livemode };
    // A chain root's: its chain's id (GET /api/v1/chains/{chainId} reads it, as does the request id).
    return { ...accepted, settlement, ...(chain ? { chainId: chain.chainId } : {}) };
  }

  /**
   * The settlement with its receipt's salt (ReceiptSalts), when the receipt's hashes are salted: shown
   * wherever the receipt is (toExecutionResponse shows both to the payer only).
   */
  salted(e: Pick<ExecutionEntity, 'id'>, settlement: Settlement): Settlement {
    const signed = settlement.signed;
    return signed && hasSaltedHashes(signed) ? { ...settlement, receiptSalt: this.salts.of(e.id) } : settlement;
  }
}
