import { defineConfig } from 'tsup';

/**
 * The publishable package: ESM and CJS builds with their type declarations. Every npm package stays
 * an import (none is bundled), so each must be listed in package.json "dependencies".
 */
export default defineConfig({
  entry: ['src/index.ts'],
  format: ['cjs', 'esm'],
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  external: [/^[^./]/],
});
