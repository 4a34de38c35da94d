/**
 * `npm run test:e2e`: the journeys in e2e/ on @playwright/test. `web`: Debian's Chromium (never
 * a downloaded browser), a fresh context per test. `electron`: the desktop app through
 * `_electron`, skipped with the reason where there is no Electron binary or no display.
 */
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS, CHROMIUM_CONTEXT } from './e2e/support/chromium.ts';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.e2e.ts',
  outputDir: 'test-results',
  // Each test starts its own upstream, service and browser context: spread them over both cores.
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env['CI'],
  // Safety nets against a hung browser or server, not performance assertions (bench/ has those).
  timeout: 300_000,
  expect: { timeout: 30_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  use: {
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    screenshot: 'only-on-failure',
    // DOM snapshots of every action, without the screencast (which doubled the suite's time).
    trace: { mode: 'retain-on-failure', screenshots: false },
  },
  projects: [
    {
      name: 'web',
      testIgnore: '**/electron.e2e.ts',
      use: {
        browserName: 'chromium',
        headless: true,
        launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
        ...CHROMIUM_CONTEXT,
      },
    },
    {
      name: 'electron',
      testMatch: '**/electron.e2e.ts',
    },
  ],
});
