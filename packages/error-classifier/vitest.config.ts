import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/error-classifier',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    watch: false,
    // A hang guard, not a timing: the fixture tests read every corpus file, and on a loaded 2-core machine the
    // no-overlap check of provider-errors-6 took 5.6 s against vitest's 5 s default (as the store and CLI suites).
    testTimeout: 30_000,
  },
});
