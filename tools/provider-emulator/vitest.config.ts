import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/provider-emulator',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The CLI tests run the built dist/main.js.
    globalSetup: ['src/test-support/build.ts'],
    // Real processes and sockets on a shared 2-core machine: generous limits, never timing assertions.
    testTimeout: 20_000,
    hookTimeout: 30_000,
    watch: false,
  },
});
