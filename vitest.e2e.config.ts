import { defineConfig } from 'vitest/config';

// End-to-end flows: Playwright (playwright-core) drives Debian's Chromium against browser mode,
// and the Electron spec runs where the Electron binary exists. One file at a time: each starts
// its own test web and server.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    environment: 'node',
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
