import { fileURLToPath } from 'node:url';
import { defineConfig, Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { CONSOLE_ROUTES, ROUTES_FILE } from './src/routes';

/** The console's routes beside its page: the api serves the page at these paths only (404 elsewhere). */
const routesFile = (): Plugin => ({
  name: 'agora-console-routes',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: ROUTES_FILE, source: `${JSON.stringify(CONSOLE_ROUTES)}\n` });
  },
});

/** The console is served by the api at `/` (the API stays under `/api`); `npm run dev -w apps/console` proxies to it. */
export default defineConfig({
  plugins: [react(), routesFile()],
  // The SDK's USDC helpers from their source (as tsconfig.json maps them), so no SDK build is needed first.
  resolve: { alias: { '@agora/sdk/money': fileURLToPath(new URL('../../libs/sdk/src/money.ts', import.meta.url)) } },
  base: '/',
  build: { outDir: '../../dist/apps/console', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
