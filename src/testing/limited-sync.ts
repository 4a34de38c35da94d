/**
 * A full sync through the outbound scheduler against a fake upstream that enforces the limit
 * table, and what it did to the windows: 429s seen, listing requests per 10 s against each
 * window's limit. Used by src/limits/outbound-sync.test.ts and `npm run bench -- --only limits`.
 *
 * The fake can clamp page sizes (`pageSize`, Gamma's silent limit clamp): the same number of
 * listing requests as a catalog 100/pageSize times bigger, at a fraction of the sync work, so a
 * sync that spans several windows stays a test-sized run.
 */
import { DEFAULT_NOW, createSyntheticCatalog, startFakeUpstream, type FakeCatalog, type FakeUpstream } from '../fake-upstream/index.ts';
import { OutboundScheduler, type SchedulerOptions } from '../limits/scheduler.ts';
import { DEFAULT_LIMITS } from '../limits/table.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { CatalogSync } from '../sync/catalog-sync.ts';
import { UpstreamClient, type ClientOptions } from '../upstream/client.ts';

export const HORIZON_MS = 7 * 86_400_000;

export interface GroupUse {
  requests: number;
  /** The window's limit per 10 s (the spec's row). */
  limit: number;
  /** Mean and least requests in the 10 s windows that start at each of the group's requests and end before its last one. */
  meanPer10s: number | null;
  minPer10s: number | null;
  /** meanPer10s / limit. */
  ratio: number | null;
}

export interface SyncThroughput {
  markets: number;
  pageSize: number;
  seconds: number;
  /** 429s the fake answered because a window was full (not scripted faults). */
  limited429: number;
  /** Scripted/random faults the fake fired. */
  faults: number;
  clientRetries: number;
  groups: { markets: GroupUse; events: GroupUse; listings: GroupUse; tags: GroupUse };
  /** The listing group closest to its limit over the sync, and how much of it the sync used. */
  binding: { name: string; ratio: number | null };
}

export interface LimitedSync {
  catalog: FakeCatalog;
  fake: FakeUpstream;
  store: CatalogStore;
  sync: CatalogSync;
  scheduler: OutboundScheduler;
  client: UpstreamClient;
  close(): Promise<void>;
}

export async function limitedWorld(opts: {
  markets: number;
  seed?: number;
  pageSize?: number;
  limits?: 'spec' | 'off';
  scheduler?: Partial<SchedulerOptions>;
  client?: Partial<ClientOptions>;
}): Promise<LimitedSync> {
  const catalog = createSyntheticCatalog({ markets: opts.markets, seed: opts.seed ?? 1 });
  const fake = await startFakeUpstream({ catalog, limits: opts.limits ?? 'spec', ...(opts.pageSize ? { maxLimit: opts.pageSize } : {}) });
  const scheduler = new OutboundScheduler(opts.scheduler);
  const client = new UpstreamClient({ urls: { gamma: fake.url, clob: fake.url, data: fake.url }, gate: scheduler, ...opts.client });
  const store = await CatalogStore.open({});
  const sync = new CatalogSync(store, client, { now: () => DEFAULT_NOW, horizonMs: HORIZON_MS });
  return {
    catalog,
    fake,
    store,
    sync,
    scheduler,
    client,
    async close() {
      await sync.stop();
      scheduler.close();
      await store.close();
      await fake.close();
    },
  };
}

function use(times: number[], limit: number): GroupUse {
  const t = [...times].sort((a, b) => a - b);
  const last = t[t.length - 1];
  const counts: number[] = [];
  let j = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i]! + 10_000 > last!) break;
    while (j < t.length && t[j]! < t[i]! + 10_000) j++;
    counts.push(j - i);
  }
  const mean = counts.length ? counts.reduce((a, b) => a + b, 0) / counts.length : null;
  return {
    requests: t.length,
    limit,
    meanPer10s: mean === null ? null : Math.round(mean * 10) / 10,
    minPer10s: counts.length ? Math.min(...counts) : null,
    ratio: mean === null ? null : Math.round((mean / limit) * 1000) / 1000,
  };
}

/** What the fake's request log says about a finished sync. */
export function measure(w: LimitedSync, pageSize: number): SyncThroughput {
  const limitOf = (name: string) => DEFAULT_LIMITS.windows.find((x) => x.name === name)!.limit;
  const times: Record<'markets' | 'events' | 'tags', number[]> = { markets: [], events: [], tags: [] };
  let first = Infinity;
  let last = -Infinity;
  for (const e of w.fake.requests.entries) {
    first = Math.min(first, e.time);
    last = Math.max(last, e.time);
    const route = w.fake.limits?.routeOf(e.method, e.path).route ?? `GET /${e.path.split('/')[1]}`;
    if (route === 'GET /markets') times.markets.push(e.time);
    else if (route === 'GET /events') times.events.push(e.time);
    else if (route === 'GET /tags') times.tags.push(e.time);
  }
  const groups = {
    markets: use(times.markets, limitOf('markets')),
    events: use(times.events, limitOf('events')),
    listings: use([...times.markets, ...times.events], limitOf('listings')),
    tags: use(times.tags, limitOf('tags')),
  };
  // The binding row: the one the sync needed most of, per its limit.
  const binding = (['markets', 'events', 'listings', 'tags'] as const).reduce((a, b) =>
    groups[b].requests / groups[b].limit > groups[a].requests / groups[a].limit ? b : a,
  );
  return {
    markets: w.catalog.counts.markets,
    pageSize,
    seconds: Math.round((last - first) / 100) / 10,
    limited429: w.fake.requests.count((e) => e.limited === true),
    faults: w.fake.faults.fired.length,
    clientRetries: w.client.stats.retries,
    groups,
    binding: { name: binding, ratio: groups[binding].ratio },
  };
}
