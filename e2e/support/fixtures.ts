/**
 * Playwright fixtures for the web journeys. Each test gets its own fake upstream, temp data
 * dir, service (synced once, on ephemeral ports), HTTP oracle on that service, and page (a
 * fresh browser context from the `web` project) opened at the web UI. Teardown closes them in
 * reverse order and removes the temp dir. Options (`test.use`) pick the catalog, a CLOB account
 * on the fake upstream, and service options.
 */
import { test as base, type Page } from '@playwright/test';
import type { FakeClobOptions, FakeUpstream } from '../../src/fake-upstream/index.ts';
import type { Service, ServiceOptions } from '../../src/http/server.ts';
import { type Catalog, openApp, startFake, startSyncedService, tempDir } from './env.ts';
import { httpOracle, type Oracle } from './journeys.ts';

export { expect } from '@playwright/test';

export interface Options {
  /** The fake upstream's catalog: the recorded fixtures, or N synthetic markets. */
  catalog: Catalog;
  /** The CLOB account the fake upstream serves orders for (none: its orders route 404s). */
  clob: FakeClobOptions | undefined;
  /** More service options, e.g. a longer horizon. */
  serviceOptions: Partial<ServiceOptions>;
}

export interface Fixtures {
  /** A temp dir for this test, removed after it. */
  dataDir: string;
  fake: FakeUpstream;
  service: Service;
  /** GET on the service's base face: where every expected value comes from. */
  api: Oracle;
  /** `page`, opened at the service's web UI and ready. */
  app: Page;
}

export const test = base.extend<Options & Fixtures>({
  catalog: [{ fixtures: true }, { option: true }],
  clob: [undefined, { option: true }],
  serviceOptions: [{}, { option: true }],

  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
  dataDir: async ({}, use) => {
    const dir = tempDir('marketdesk-e2e-');
    await use(dir.dir);
    dir.cleanup();
  },
  fake: async ({ catalog, clob }, use) => {
    const fake = await startFake(catalog, clob ? { clob } : {});
    await use(fake);
    // Idempotent: a test may have stopped it already to go offline.
    await fake.close();
  },
  service: async ({ fake, dataDir, serviceOptions }, use) => {
    const service = await startSyncedService(fake, dataDir, serviceOptions);
    await use(service);
    await service.close();
  },
  api: async ({ service }, use) => {
    await use(httpOracle(service.baseUrl!));
  },
  // The service first, so it outlives the page (and its open event stream) at teardown.
  app: async ({ service, page }, use) => {
    await openApp(page, service.baseUrl!);
    await use(page);
  },
});
