import { defineConfig } from 'vitest/config';

/** `npm run test:e2e`: Playwright journeys in Debian's Chromium (web mode) and Electron where present. */
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    // A safety net against a hung browser or server, not a performance assertion (bench/ has those).
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // Each file runs its own service, upstream and browser; a few at a time keep the machine responsive.
    maxWorkers: 3,
  },
});
