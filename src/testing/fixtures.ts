/**
 * Test support: the real Gamma responses in the repo's fixtures/gamma, and a service started on ephemeral ports with a temporary data dir.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURES_DIR } from '../fake-upstream/fixture-catalog.ts';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';

export { FIXTURES_DIR };

export function readFixture<T>(rel: string): T {
  return JSON.parse(readFileSync(path.join(FIXTURES_DIR, rel), 'utf8')) as T;
}

export const fixtureMarkets = () => readFixture<GammaMarket[]>('markets_active_2026-02.json');
export const fixtureEvents = () => readFixture<GammaEvent[]>('events_active_2025-06.json');
export const fixtureTags = () => readFixture<GammaTag[]>('tags_default_page_2026-01-02.json');

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = 'marketdesk-test-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Upstream URLs that refuse connections at once (for services that must not sync). */
export const DEAD_UPSTREAM = { gamma: 'http://127.0.0.1:9/', clob: 'http://127.0.0.1:9/', data: 'http://127.0.0.1:9/' };
