export { OutboundUrlPolicy } from './outbound-url.policy';
export { OutboundModule } from './outbound.module';
export { OutboundError, OutboundHttpClient } from './outbound-http.client';
export { ed25519FromSeed, PlatformSigner } from './platform-signer';
// Tests only: no production code imports these (a test reaches a lib through its barrel).
export { dnsResolver } from './dns-resolver';
