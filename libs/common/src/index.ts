export * from './errors';
export * from './money';
export * from './ids';
export * from './clock';
export * from './pagination';
export * from './wallet';
export * from './reputation-tier';
export * from './clock.module';
