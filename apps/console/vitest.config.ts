import { defineConfig, mergeConfig } from 'vitest/config';
import vite from './vite.config';

/**
 * Component tests (`npm test -w apps/console`): the console's views and forms rendered by React in
 * jsdom, the API a fake fetch (src/test/support.tsx). The browser tests against the real api are
 * test/e2e/console-*.e2e-spec.ts (jest, Chromium).
 */
export default mergeConfig(
  vite,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      unstubGlobals: true,
      restoreMocks: true,
    },
  }),
);
