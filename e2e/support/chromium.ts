/**
 * Debian's Chromium, never a downloaded browser: shared by playwright.config.ts (the `web`
 * project) and launchBrowser (the tsx scripts), so both drive the same binary the same way.
 */
export const CHROMIUM = process.env['MARKETDESK_CHROMIUM'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The window every journey sees: fixed, so layouts and screenshots do not depend on the host. */
export const CHROMIUM_CONTEXT = {
  viewport: { width: 1440, height: 900 },
  locale: 'en-US',
  timezoneId: 'UTC',
  colorScheme: 'light',
} as const;
