import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{shared,engine,app,electron,cli,server,testweb,tests}/**/*.test.ts', 'renderer/src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
