import { Global, Module } from '@nestjs/common';
import { Clock } from '@app/common';
import { AppConfig } from '@app/config';
import { OutboundUrlPolicy } from './outbound-url.policy';
import { OutboundHttpClient } from './outbound-http.client';
import { PlatformSigner } from './platform-signer';

@Global()
@Module({
  providers: [
    {
      provide: OutboundUrlPolicy,
      inject: [AppConfig, Clock],
      useFactory: (c: AppConfig, clock: Clock) => new OutboundUrlPolicy(c, undefined, clock),
    },
    {
      provide: OutboundHttpClient,
      inject: [AppConfig, OutboundUrlPolicy],
      useFactory: (c: AppConfig, p: OutboundUrlPolicy) => new OutboundHttpClient(c, p),
    },
    PlatformSigner,
  ],
  exports: [OutboundUrlPolicy, OutboundHttpClient, PlatformSigner],
})
export class OutboundModule {}
