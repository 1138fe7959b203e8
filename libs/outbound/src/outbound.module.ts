import { Global, Module } from '@nestjs/common';
import { AppConfig } from '@app/config';
import { OutboundUrlPolicy } from './outbound-url.policy';

@Global()
@Module({
  providers: [{ provide: OutboundUrlPolicy, inject: [AppConfig], useFactory: (c: AppConfig) => new OutboundUrlPolicy(c) }],
  exports: [OutboundUrlPolicy],
})
export class OutboundModule {}
