import { defineConfig } from 'tsup';

/**
 * The build of a publishable app package (the `agora` CLI, the MCP server): `src/main.ts` bundled into
 * dist/main.js (CommonJS, with the repository's @app/* libs it imports, if any); every npm package,
 * @agora/sdk included, stays an import, so each must be listed in its package.json "dependencies".
 */
export function appPackageBuild() {
  return defineConfig({
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
}
