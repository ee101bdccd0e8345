import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['server/src/testing/global-setup.ts'],
    include: ['server/**/*.test.ts', 'client-sdk/src/**/*.test.ts', 'db/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only contend.
    maxWorkers: 2,
  },
});
