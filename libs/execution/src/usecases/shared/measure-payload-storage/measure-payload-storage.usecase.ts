import { Injectable } from '@nestjs/common';
import { ExecutionPayloadsRepository, PayloadStorage } from '../../../execution-payloads.repository';

/** How many agents the storage figure names: the metric's cardinality stays bounded whatever the number of agents. */
export const STORAGE_TOP_AGENTS = 20;

/**
 * What the executions' payloads (input and output, as stored) take, for the agents that hold the
 * most and in total: the worker's storage gauges, every STORAGE_METRICS_INTERVAL_MS.
 */
@Injectable()
export class MeasurePayloadStorage {
  constructor(private readonly payloads: ExecutionPayloadsRepository) {}

  execute(): Promise<PayloadStorage> {
    return this.payloads.storageByAgent(STORAGE_TOP_AGENTS);
  }
}
