import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];
// Dependencies run in Node: without the bundler-only `module` condition (@opentelemetry/api, under the Vercel AI
// SDK of the compatibility suite, maps it to an ESM build with extension-less imports that Node cannot load).
const serverConditions = conditions.filter((condition) => condition !== 'module');

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions: serverConditions } },
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
