export * from './address-policy';
export * from './outbound-url.policy';
export * from './outbound.module';
export * from './outbound-http.client';
export * from './platform-signer';
