export { OutboundUrlPolicy } from './outbound-url.policy';
export type { OutboundPolicyOptions, Resolver } from './outbound-url.policy';
export { OutboundModule } from './outbound.module';
export { OutboundError, OutboundHttpClient } from './outbound-http.client';
export type { OutboundFailure, OutboundRequest, OutboundResponse } from './outbound-http.client';
export { ed25519FromSeed, PlatformSigner } from './platform-signer';
export type { PlatformSignaturePurpose } from './platform-signer';
export { dnsResolver } from './dns-resolver';
export type { DnsResolverOptions } from './dns-resolver';
