import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './config';

/**
 * Provides the validated AppConfig everywhere. `forRoot()` parses the environment once;
 * tests pass a ready-made config.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useValue: config ?? loadConfig() }],
      exports: [AppConfig],
    };
  }
}
