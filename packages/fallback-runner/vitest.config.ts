import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/fallback-runner',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    watch: false,
    coverage: {
      include: ['src/**/*.ts'],
      exclude: ['src/**/*.test.ts', 'src/**/test-support/**', 'src/index.ts', 'src/options.ts', 'src/testing/index.ts'],
      thresholds: { lines: 92, statements: 92, functions: 90, branches: 82 },
    },
  },
});
