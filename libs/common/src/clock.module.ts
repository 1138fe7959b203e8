import { DynamicModule, Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock';
import { FaultInjector } from './faults';

/**
 * The process clock (tests pass their own to move time: escrow holds, windows, retries) and the
 * fault injector (tests arm it to fail a step on purpose).
 */
@Global()
@Module({})
export class ClockModule {
  static register(clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ClockModule,
      providers: [{ provide: Clock, useValue: clock }, FaultInjector],
      exports: [Clock, FaultInjector],
    };
  }
}
