import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/gateway',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    watch: false,
    // The end-to-end suites spawn the built gateway and emulator.
    globalSetup: ['src/test-support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
