/**
 * `--horizon-days all` (horizon Infinity): every closed item the upstream has is kept, the
 * history walk starts only after the open catalog is in, resumes from its saved cursor after a
 * restart, and marks itself incomplete on an upstream without keyset routes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, DEFAULT_NOW, type FakeCatalog, type FakeUpstream, type RequestLogEntry } from '../fake-upstream/index.ts';
import { tempDir } from '../testing/fixtures.ts';
import { dumpEvents, dumpMarkets, expectedCache, startFake, syncAgainst } from '../testing/sync-harness.ts';
import { CatalogSync, type SyncOptions } from './catalog-sync.ts';

const DAY = 86_400_000;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function fakeOf(catalog: FakeCatalog, opts: Parameters<typeof startFake>[1] = {}): Promise<FakeUpstream> {
  const fake = await startFake(catalog, opts);
  cleanups.push(() => fake.close());
  return fake;
}

async function harness(fake: FakeUpstream, sync: SyncOptions = {}, dataDir?: string) {
  // A long attempt timeout: a test holds hung requests open on purpose.
  const h = await syncAgainst(fake, {
    sync: { now: () => DEFAULT_NOW, horizonMs: Infinity, resumeDelayMs: 1, ...sync },
    client: { timeoutMs: 120_000 },
    ...(dataDir ? { dataDir } : {}),
  });
  cleanups.push(() => h.close());
  return h;
}

const ids = (xs: { id: string }[]) => xs.map((x) => x.id).sort((a, b) => Number(a) - Number(b));
const all = <T>(catalog: FakeCatalog, kind: 'markets' | 'events') =>
  (kind === 'markets'
    ? catalog.marketRecords().map((r) => catalog.getMarket(r.id)!)
    : catalog.eventRecords().map((r) => catalog.getEvent(r.id)!)) as T[];

/** A request of the history walk: a keyset listing of closed items in id order (the recently-closed read orders by closedTime). */
const historyPage = (kind: 'markets' | 'events') => (e: RequestLogEntry) =>
  e.path === `/${kind}/keyset` && e.query['closed'] === 'true' && e.query['order'] === undefined;

describe('horizon all', () => {
  it('keeps every closed market and event the upstream has; 7 days prunes as before', async () => {
    const catalog = createSyntheticCatalog({ markets: 2500, seed: 21 });
    const week = expectedCache(catalog, DEFAULT_NOW - 7 * DAY);
    // The catalog has closed items older than the 7-day horizon, or this test could not fail.
    expect(week.markets.length).toBeLessThan(catalog.counts.markets);
    expect(week.events.length).toBeLessThan(catalog.counts.events);

    const fake = await fakeOf(catalog);
    const h = await harness(fake);
    await h.sync.syncNow('full');
    await h.sync.syncHistory();
    expect(h.store.reader.counts()).toMatchObject({ markets: catalog.counts.markets, events: catalog.counts.events });
    expect(ids(dumpMarkets(h.store))).toEqual(ids(all(catalog, 'markets')));
    expect(ids(dumpEvents(h.store))).toEqual(ids(all(catalog, 'events')));
    const closed = (kind: 'markets' | 'events') => all<{ closed?: boolean }>(catalog, kind).filter((x) => x.closed === true).length;
    expect(h.sync.status().history).toMatchObject({ state: 'done', markets: closed('markets'), events: closed('events') });

    // A completed history is not walked again.
    const before = fake.requests.count(historyPage('markets'));
    await h.sync.syncHistory();
    await h.sync.syncNow('full');
    expect(fake.requests.count(historyPage('markets'))).toBe(before);
    expect(h.store.reader.counts().markets).toBe(catalog.counts.markets);

    const fake7 = await fakeOf(catalog);
    const d = await harness(fake7, { horizonMs: 7 * DAY });
    await d.sync.syncNow('full');
    await d.sync.syncHistory();
    expect(ids(dumpMarkets(d.store))).toEqual(ids(week.markets));
    expect(ids(dumpEvents(d.store))).toEqual(ids(week.events));
    expect(d.sync.status().history?.state).toBe('off');
    expect(fake7.requests.count(historyPage('markets')) + fake7.requests.count(historyPage('events'))).toBe(0);
  });

  it('starts the history walk after the open catalog is in, in the background loop', async () => {
    const catalog = createSyntheticCatalog({ markets: 1200, seed: 22 });
    const fake = await fakeOf(catalog);
    const h = await harness(fake);
    const done = new Promise<void>((resolve) => h.sync.onStatus((s) => s.history?.state === 'done' && resolve()));
    h.sync.start();
    await done;
    const log = fake.requests.entries;
    const lastOpen = log.findLastIndex((e) => e.path.endsWith('/keyset') && e.query['closed'] === 'false');
    const firstHistory = log.findIndex((e) => historyPage('markets')(e) || historyPage('events')(e));
    expect(lastOpen).toBeGreaterThanOrEqual(0);
    expect(firstHistory).toBeGreaterThan(lastOpen);
    expect(h.store.reader.counts().markets).toBe(catalog.counts.markets);
  });

  it('a walk stopped mid-way goes on from its saved cursor after a restart, and ends with the same set', async () => {
    const catalog = createSyntheticCatalog({ markets: 3000, seed: 23 });
    const cleanFake = await fakeOf(catalog, { maxLimit: 20 });
    const clean = await harness(cleanFake);
    await clean.sync.syncNow('full');
    await clean.sync.syncHistory();
    const cleanPages = cleanFake.requests.count((e) => historyPage('markets')(e) || historyPage('events')(e));

    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const fake = await fakeOf(catalog, { maxLimit: 20 });
    const first = await harness(fake, {}, tmp.dir);
    await first.sync.syncNow('full');
    // Hold the 4th history page of markets and the 3rd of events; stop the service while they hang.
    const nth = (kind: 'markets' | 'events', n: number) => {
      const seen: string[] = [];
      return (r: { path: string; query: URLSearchParams }) => {
        if (r.path !== `/${kind}/keyset` || r.query.get('closed') !== 'true' || r.query.has('order')) return false;
        const c = r.query.get('after_cursor') ?? '';
        if (!seen.includes(c)) seen.push(c);
        return c === seen[n];
      };
    };
    fake.faults.push({ kind: 'hang', match: nth('markets', 3) }).push({ kind: 'hang', match: nth('events', 2) });
    const walking = first.sync.syncHistory();
    const hung = (kind: 'markets' | 'events') => fake.requests.waitFor((e) => e.fault === 'hang' && e.path === `/${kind}/keyset`, 60_000);
    const [hungMarkets, hungEvents] = await Promise.all([hung('markets'), hung('events')]);
    await first.close();
    await expect(walking).rejects.toThrow();
    expect(first.sync.status().history?.state).toBe('walking');
    const firstRun = fake.requests.entries.filter((e) => historyPage('markets')(e) || historyPage('events')(e)).length;
    fake.requests.clear();

    const second = await harness(fake, {}, tmp.dir);
    expect(second.sync.status().history).toMatchObject({ state: 'walking', markets: 60, events: 40 });
    await second.sync.syncHistory();
    const pages = (kind: 'markets' | 'events') => fake.requests.entries.filter(historyPage(kind));
    // Each walk goes on from the page that hung: nothing before it is read again.
    expect(pages('markets')[0]!.query['after_cursor']).toBe(hungMarkets.query['after_cursor']);
    expect(pages('events')[0]!.query['after_cursor']).toBe(hungEvents.query['after_cursor']);
    expect([...pages('markets'), ...pages('events')].every((e) => e.query['after_cursor'] !== undefined)).toBe(true);
    // The two runs together read each history page once, plus the two pages that hung.
    expect(firstRun + pages('markets').length + pages('events').length).toBe(cleanPages + 2);
    expect(second.sync.status().history).toMatchObject(clean.sync.status().history!);
    expect(ids(dumpMarkets(second.store))).toEqual(ids(dumpMarkets(clean.store)));
    expect(ids(dumpEvents(second.store))).toEqual(ids(dumpEvents(clean.store)));
    expect(second.store.reader.counts().markets).toBe(catalog.counts.markets);
  });

  it('without keyset routes walks what offset paging reaches, says so, and marks the history incomplete', async () => {
    const catalog = createSyntheticCatalog({ markets: 11_000, seed: 5 });
    const closedMarkets = all<{ closed?: boolean }>(catalog, 'markets').filter((m) => m.closed === true).length;
    expect(closedMarkets).toBeGreaterThan(2100);
    const fake = await fakeOf(catalog, { keyset: false });
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (m: string) => void warnings.push(m) };
    const h = await harness(fake, { log });
    await h.sync.syncHistory();
    const st = h.sync.status().history!;
    expect(st.state).toBe('incomplete');
    // Offsets 0 to 2,000, 100 a page: 2,100 of the closed markets.
    expect(st.markets).toBe(2100);
    expect(warnings.some((w) => /no keyset routes/.test(w) && /2100 closed markets/.test(w))).toBe(true);
    expect(fake.requests.count((e) => e.status === 422)).toBe(0);
    // Not walked again in this process; the next start tries again (the upstream may have changed).
    const requests = fake.requests.count();
    await h.sync.syncHistory();
    expect(fake.requests.count()).toBe(requests);
    const restarted = new CatalogSync(h.store, h.client, { now: () => DEFAULT_NOW, horizonMs: Infinity, log });
    cleanups.push(() => restarted.stop());
    await restarted.syncHistory();
    expect(fake.requests.count()).toBeGreaterThan(requests);
    expect(restarted.status().history).toMatchObject({ state: 'incomplete', markets: 2100 });
  });
});
