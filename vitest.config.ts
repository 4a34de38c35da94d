import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'main/**/*.test.ts', 'renderer/**/*.test.{ts,tsx}'],
    // The CLI tests spawn the built out/main/cli.js, as users run it.
    globalSetup: ['src/testing/global-setup.ts'],
    // A safety net against a hung server, not a performance assertion (those live in bench/).
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
