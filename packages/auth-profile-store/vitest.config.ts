import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/auth-profile-store',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    watch: false,
    // Hang guards, not timings: the PostgreSQL and multi-process tests share two cores with the other suites in CI.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
