/**
 * Time source, injected so tests can move time (signature windows, escrow holds,
 * retry schedules) without waiting.
 */
export abstract class Clock {
  abstract now(): Date;

  nowMs(): number {
    return this.now().getTime();
  }

  /**
   * A time of this clock (default: now) as the wall clock reads it: what an absolute time handed to
   * Redis (PXAT, PEXPIREAT) or BullMQ must be, since they count on the machine's clock. The same
   * for the system clock; a test clock moved in time shifts it back.
   */
  wallMs(ms: number = this.nowMs()): number {
    return ms + Date.now() - this.nowMs();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }

  override wallMs(ms: number = Date.now()): number {
    return ms;
  }
}

export class FixedClock extends Clock {
  constructor(private current: Date) {
    super();
  }

  now(): Date {
    return new Date(this.current.getTime());
  }

  set(date: Date): void {
    this.current = date;
  }

  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}
