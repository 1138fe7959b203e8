export * from './usdc';
export * from './bigint.transformer';
