import { Injectable } from '@nestjs/common';
import { ExecutionPayloadsRepository, PayloadStorage } from '../../../execution-payloads.repository';

/** How many agents (payers) the storage figure names: the metric's cardinality stays bounded whatever their number. */
export const STORAGE_TOP_AGENTS = 20;

/**
 * What the executions' payloads (input and output, as stored) take, for the agents and the payers
 * that hold the most and in total: the worker's storage gauges, every STORAGE_METRICS_INTERVAL_MS.
 */
@Injectable()
export class MeasurePayloadStorage {
  constructor(private readonly payloads: ExecutionPayloadsRepository) {}

  async execute(): Promise<{ agents: PayloadStorage; payers: PayloadStorage }> {
    const agents = await this.payloads.storageBy('agent', STORAGE_TOP_AGENTS);
    const payers = await this.payloads.storageBy('payer', STORAGE_TOP_AGENTS);
    return { agents, payers };
  }
}
