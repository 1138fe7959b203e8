import { defineConfig } from 'tsup';

/**
 * The publishable package: ESM and CJS builds with their type declarations. Every npm package stays
 * an import (none is bundled), so each must be listed in package.json "dependencies".
 * `@agora/sdk/money` (src/money.ts) is an entry of its own: the USDC helpers with big.js alone, for a
 * browser bundle (the web console) that wants exact amounts without the client's ethers and x402.
 */
export default defineConfig({
  entry: ['src/index.ts', 'src/money.ts'],
  format: ['cjs', 'esm'],
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  external: [/^[^./]/],
});
