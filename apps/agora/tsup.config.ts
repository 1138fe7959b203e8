import { defineConfig } from 'tsup';

/**
 * The publishable package's build: the `agora` CLI bundled into dist/main.js (CommonJS, with the
 * repository's @app/* libs it imports, if any); every npm package, @agora/sdk included, stays an
 * import, so each must be listed in package.json "dependencies".
 */
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: ['cjs'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  tsconfig: 'tsconfig.app.json',
  noExternal: [/^@app\//],
  external: [/^[^./]/],
});
