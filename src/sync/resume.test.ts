/**
 * A walk whose page fails after the client's retries fetches that page again from its cursor
 * (issue 12): the run goes on, and the pages before it are not read twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, DEFAULT_NOW, type FakeCatalog, type FaultRequest } from '../fake-upstream/index.ts';
import { dumpEvents, dumpMarkets, startFake, syncAgainst } from '../testing/sync-harness.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world(catalog: FakeCatalog, sync: { maxStalls?: number } = {}) {
  const fake = await startFake(catalog);
  cleanups.push(() => fake.close());
  // One retry per request: two 500s in a row fail a page at the client.
  const h = await syncAgainst(fake, {
    sync: { now: () => DEFAULT_NOW, horizonMs: 7 * DAY, resumeDelayMs: 1, ...sync },
    client: { maxRetries: 1 },
  });
  cleanups.push(() => h.close());
  return { fake, ...h };
}

/** Open-market keyset pages: the full walk's, not the recently-closed one's. */
const openWalk = (path: string, q: { get(k: string): string | null }) => path === '/markets/keyset' && q.get('closed') === 'false';

/** Matches the open-market walk's `n`th page (0: the first), as the fake sees requests arrive. */
function nthPage(n: number): { match: (r: FaultRequest) => boolean; cursor: () => string | undefined } {
  const cursors: string[] = [];
  return {
    match: (r) => {
      if (!openWalk(r.path, r.query)) return false;
      const c = r.query.get('after_cursor') ?? '';
      if (!cursors.includes(c)) cursors.push(c);
      return c === cursors[n];
    },
    cursor: () => cursors[n],
  };
}

describe('walk resume', () => {
  it('a page failing after its retries is fetched again from its cursor; earlier pages are not', async () => {
    const catalog = createSyntheticCatalog({ markets: 1500, seed: 13 });
    const clean = await world(catalog);
    await clean.sync.syncNow('full');

    const { fake, sync, store } = await world(catalog);
    const third = nthPage(3);
    // Four 500s: the page fails twice at the client (2 attempts each), then answers.
    fake.faults.push({ kind: '500', match: third.match }, 4);
    await sync.syncNow('full');
    expect(fake.faults.pending).toBe(0);

    const byCursor = new Map<string, number[]>();
    for (const e of fake.requests.entries) {
      if (!openWalk(e.path, new URLSearchParams(e.query as Record<string, string>))) continue;
      const c = (e.query['after_cursor'] as string | undefined) ?? '';
      byCursor.set(c, [...(byCursor.get(c) ?? []), e.status]);
    }
    expect(byCursor.get(third.cursor()!)).toEqual([500, 500, 500, 500, 200]);
    byCursor.delete(third.cursor()!);
    expect(byCursor.size).toBeGreaterThan(3);
    for (const statuses of byCursor.values()) expect(statuses).toEqual([200]);
    expect(sync.status().lastError).toBeNull();
    expect(dumpMarkets(store)).toEqual(dumpMarkets(clean.store));
    expect(dumpEvents(store)).toEqual(dumpEvents(clean.store));
  });

  it('without a deadline a page gives up after maxStalls failures in a row; with one it keeps going', async () => {
    const catalog = createSyntheticCatalog({ markets: 300, seed: 14 });
    const clean = await world(catalog);
    await clean.sync.syncNow('full');
    const failing = await world(catalog, { maxStalls: 1 });
    failing.fake.faults.push({ kind: '500', match: nthPage(1).match }, 4);
    await expect(failing.sync.syncNow('full')).rejects.toThrow(/failed after 2 attempts: 500/);

    const { fake, sync, store } = await world(catalog, { maxStalls: 1 });
    fake.faults.push({ kind: '500', match: nthPage(1).match }, 6);
    await sync.syncNow('full', { deadline: new AbortController().signal });
    expect(fake.faults.pending).toBe(0);
    expect(dumpMarkets(store)).toEqual(dumpMarkets(clean.store));
  });
});
