/**
 * Test support for sync: a fake upstream plus a store and sync engine wired to it, and
 * helpers that dump the cache and compute, by brute force over the fake catalog, what the
 * cache should hold.
 */
import { operations, parseParams, type Event, type Market, type RawParams } from '../contract/index.ts';
import { startFakeUpstream, type FakeCatalog, type FakeUpstream, type FakeUpstreamOptions } from '../fake-upstream/index.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { parseTs } from '../logger.ts';
import { CatalogSync, type SyncOptions } from '../sync/catalog-sync.ts';
import { UpstreamClient, type ClientOptions } from '../upstream/client.ts';
import type { GammaEvent, GammaMarket } from '../contract/gamma.ts';

export interface Harness {
  fake: FakeUpstream;
  store: CatalogStore;
  sync: CatalogSync;
  client: UpstreamClient;
  close(): Promise<void>;
}

export async function startFake(catalog: FakeCatalog, opts: Omit<FakeUpstreamOptions, 'catalog'> = {}): Promise<FakeUpstream> {
  return startFakeUpstream({ catalog, ...opts });
}

/** A store and sync engine against `fake`, with quick retries (tests must not wait seconds). */
export async function syncAgainst(
  fake: FakeUpstream,
  opts: { sync?: SyncOptions; client?: Partial<ClientOptions>; dataDir?: string } = {},
): Promise<Omit<Harness, 'fake'>> {
  const store = await CatalogStore.open(opts.dataDir ? { dataDir: opts.dataDir } : {});
  const client = new UpstreamClient({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    baseDelayMs: 1,
    maxDelayMs: 20,
    timeoutMs: 5000,
    ...opts.client,
  });
  const sync = new CatalogSync(store, client, opts.sync);
  return {
    store,
    sync,
    client,
    async close() {
      await sync.stop();
      await store.close();
    },
  };
}

function params<K extends 'markets.list' | 'events.list'>(op: K, raw: RawParams) {
  const p = parseParams(operations[op].params, raw);
  if (!p.ok) throw new Error(p.message);
  return p.value;
}

/** Every cached market, in id order, as GET /markets serves them. */
export function dumpMarkets(store: CatalogStore, raw: RawParams = {}): Market[] {
  const out: Market[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = store.reader.listMarkets(params('markets.list', { ...raw, limit: '100', offset: String(offset) }) as never);
    out.push(...page);
    if (page.length < 100) return out;
  }
}

export function dumpEvents(store: CatalogStore, raw: RawParams = {}): Event[] {
  const out: Event[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = store.reader.listEvents(params('events.list', { ...raw, limit: '100', offset: String(offset) }) as never);
    out.push(...page);
    if (page.length < 100) return out;
  }
}

/** When an item closed, as the cache's horizon reads it. */
export function closedAt(it: { closedTime?: unknown; updatedAt?: unknown; endDate?: unknown }): number {
  return parseTs(it.closedTime) ?? parseTs(it.updatedAt) ?? parseTs(it.endDate) ?? 0;
}

/**
 * What a full sync followed by pruning at `cutoff` must leave in the cache: open markets,
 * markets of open events, markets closed since the cutoff; events that are open, closed since
 * the cutoff, or linked to a cached market.
 */
export function expectedCache(catalog: FakeCatalog, cutoff: number): { markets: GammaMarket[]; events: GammaEvent[] } {
  const events = catalog.eventRecords().map((r) => catalog.getEvent(r.id)!);
  const openEventMarkets = new Set<string>();
  for (const e of events) if (e.closed !== true) for (const m of e.markets ?? []) openEventMarkets.add(m.id);
  const markets = catalog
    .marketRecords()
    .map((r) => catalog.getMarket(r.id)!)
    .filter((m) => m.closed !== true || openEventMarkets.has(m.id) || closedAt(m) >= cutoff);
  const kept = new Set(markets.map((m) => m.id));
  const linked = new Set<string>();
  for (const m of markets) for (const e of m.events ?? []) linked.add(e.id);
  for (const e of events) if ((e.markets ?? []).some((m) => kept.has(m.id))) linked.add(e.id);
  return {
    markets,
    events: events.filter((e) => e.closed !== true || closedAt(e) >= cutoff || linked.has(e.id)),
  };
}
