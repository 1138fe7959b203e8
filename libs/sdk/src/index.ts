export * from './errors';
export * from './money';
export * from './signer';
export * from './payer';
export * from './transport';
export * from './resources';
export * from './client';
export * from './agent-kit';
export type { components, operations } from './generated/openapi';
