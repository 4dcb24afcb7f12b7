import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

const conditions = ['@understudy/source', ...defaultServerConditions];

export default defineConfig({
  root: import.meta.dirname,
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: '@understudy/runtime',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    watch: false,
  },
});
