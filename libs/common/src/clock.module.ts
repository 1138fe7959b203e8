import { Global, Module } from '@nestjs/common';
import { Clock, SystemClock } from './clock';

/** The process clock; tests override the Clock provider to move time. */
@Global()
@Module({ providers: [{ provide: Clock, useClass: SystemClock }], exports: [Clock] })
export class ClockModule {}
