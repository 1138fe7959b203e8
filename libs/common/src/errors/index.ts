export * from './error-codes';
export * from './app.exception';
