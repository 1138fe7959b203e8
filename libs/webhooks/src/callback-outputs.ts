import { Injectable } from '@nestjs/common';

/** The stored output of an execution, or null when it has none (any more). */
export type CallbackOutputReader = (executionId: string) => Promise<Record<string, unknown> | null>;

/**
 * Where a completed execution's callback gets its output when it is sent: the callback row keeps
 * no copy. The execution lib (a higher tier, which owns the `executions` table) registers the
 * reader when its module starts, as domains register their sweeps.
 */
@Injectable()
export class CallbackOutputs {
  private reader: CallbackOutputReader | null = null;

  register(reader: CallbackOutputReader): void {
    this.reader = reader;
  }

  read(executionId: string): Promise<Record<string, unknown> | null> {
    if (!this.reader)
      throw new Error('no reader of execution outputs is registered (the execution module is not loaded)');
    return this.reader(executionId);
  }
}
