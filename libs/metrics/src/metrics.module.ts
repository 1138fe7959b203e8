import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** One `Metrics` per application, labelled with the process name; global so any domain can record. */
@Global()
@Module({})
export class MetricsModule {
  static forProcess(name: string): DynamicModule {
    return {
      module: MetricsModule,
      providers: [{ provide: Metrics, useFactory: () => new Metrics({ process: name }) }],
      exports: [Metrics],
    };
  }
}
