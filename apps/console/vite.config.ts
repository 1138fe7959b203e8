import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** The console is served by the api at `/` (the API stays under `/api`); `npm run dev -w apps/console` proxies to it. */
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { outDir: '../../dist/apps/console', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 400 },
  server: { proxy: { '/api': 'http://127.0.0.1:3000' } },
});
