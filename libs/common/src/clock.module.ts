import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock';

/** The process clock; tests pass their own to move time (escrow holds, windows, retries). */
@Global()
@Module({})
export class ClockModule {
  static register(clock: Clock = new SystemClock()): DynamicModule {
    return { module: ClockModule, providers: [{ provide: Clock, useValue: clock }], exports: [Clock] };
  }
}
