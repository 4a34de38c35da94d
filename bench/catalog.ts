/**
 * `--only catalog`: warm start, then catalog queries over HTTP against the real service (its own
 * process), each beside a bare Fastify route answering a body of the same size, and throughput.
 *
 * Every row says whether its answers are cached. A cached row repeats one URL, so after the first
 * request the service's response cache answers (a map lookup). An uncached row makes every request
 * a new URL, walking offsets and sorts as a user scrolls, so each answer is the query's own cost.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { baselineServer, cliProcess, get, measure, rssMiB, table, type Latency, type Proc } from './lib.ts';
import { throughput } from './throughput.ts';

/** A measured row: its name, whether the response cache answers it, and its URL (or a new URL per request). */
type Row = [name: string, cache: 'cached' | 'uncached', url: string | (() => string)];

/** Sorts a client scrolls `active=true&closed=false` by ('' = none: id order), with a first click's direction. */
const SCROLL_SORTS: [order: string, ascending: boolean][] = [
  ['', true],
  ['volume24hr', false],
  ['volume', false],
  ['liquidity', false],
  ['endDate', true],
  ['startDate', false],
  ['createdAt', false],
];
const PAGE = 20;

/**
 * Offsets 0, 20, 40, ... as a grid scrolled page by page from the top, each request a new URL.
 * Past `pages` (a small catalog) it starts again from the top with a pass number, still a new URL.
 */
function scroll(pages: number, url: (offset: number) => string): () => string {
  let i = 0;
  return () => {
    const pass = Math.floor(i / pages);
    const u = url(PAGE * (i++ % pages));
    return pass === 0 ? u : `${u}&pass=${pass}`;
  };
}

async function popularTag(base: string): Promise<string> {
  // The most used of the first tags: the planner's worst case is a tag with many markets.
  const tags = JSON.parse((await get(`${base}/tags?limit=30`)).body) as { id: string }[];
  let popular = tags[0]!.id;
  let most = -1;
  for (const t of tags) {
    const n = (JSON.parse((await get(`${base}/markets?limit=100&offset=900&tag_id=${t.id}`)).body) as unknown[]).length;
    if (n > most) [most, popular] = [n, t.id];
  }
  return popular;
}

interface Ctx {
  base: string;
  markets: number;
  events: number;
  n: number;
  tag: string;
  sample: { slug: string; conditionId: string }[];
}

/** Offsets from 70% of `total` deeper, spread over the run's requests so the walk stays inside it; each a new URL. */
function deepWalk(total: number, n: number, url: (offset: number) => string): () => string {
  const deep = Math.floor(total * 0.7);
  const step = Math.max(1, Math.floor((total * 0.29) / (n + 30)));
  let d = 0;
  return () => url(deep + step * d++);
}

function rows({ base, markets, events, n, tag, sample }: Ctx): Row[] {
  let i = 0;
  const m = `${base}/markets?limit=${PAGE}`;
  const out: Row[] = [
    ['markets: closed=false, order=volume desc', 'cached', `${m}&closed=false&order=volume&ascending=false`],
    [
      'markets: closed=false, order=volume desc, offsets 0, 2, 4, ...',
      'uncached',
      () => `${m}&closed=false&order=volume&offset=${(i++ % 5000) * 2}`,
    ],
  ];
  for (const [order, asc] of SCROLL_SORTS) {
    const sort = order ? `&order=${order}&ascending=${asc}` : '';
    out.push([
      `markets: active=true&closed=false, ${order ? `order=${order} ${asc ? 'asc' : 'desc'}` : 'no order (id)'}, scrolled from offset 0`,
      'uncached',
      // About three quarters of the synthetic catalog is active and open: stay inside it.
      scroll(Math.floor((markets * 0.7) / PAGE), (offset) => `${m}&active=true&closed=false${sort}&offset=${offset}`),
    ]);
  }
  // The default order at 70% of the catalog and deeper.
  const e = `${base}/events?limit=${PAGE}`;
  out.push(
    [
      `markets: no order (id), offsets ${Math.floor(markets * 0.7).toLocaleString('en')}+`,
      'uncached',
      deepWalk(markets, n, (o) => `${m}&offset=${o}`),
    ],
    [
      'events: active=true&closed=false, order=volume24hr desc, scrolled from offset 0',
      'uncached',
      scroll(Math.floor((events * 0.7) / PAGE), (o) => `${e}&active=true&closed=false&order=volume24hr&ascending=false&offset=${o}`),
    ],
    [
      `events: no order (id), offsets ${Math.floor(events * 0.7).toLocaleString('en')}+`,
      'uncached',
      deepWalk(events, n, (o) => `${e}&offset=${o}`),
    ],
  );
  // The first 50 pages (a smaller tag has no page 250); an ignored parameter keeps each URL new.
  out.push(
    [
      'markets: active=true, popular tag, order=endDate asc, first 50 pages',
      'uncached',
      () => `${m}&active=true&tag_id=${tag}&order=endDate&ascending=true&offset=${(i % 50) * PAGE}&n=${i++}`,
    ],
    [
      'markets: closed=false, popular tag, order=volume24hr desc, first 50 pages',
      'uncached',
      () => `${m}&closed=false&tag_id=${tag}&order=volume24hr&ascending=false&offset=${(i % 50) * PAGE}&n=${i++}`,
    ],
    [
      // The two rows above page through a listing, which sorts the tag's members once (its sorted ids are kept
      // until the next write); here every request is the first page past the first 100 of a listing not seen
      // before (48 filter and sort combinations, more than the reader keeps), so each pays for the sort.
      'markets: popular tag, a new filter and sort each request (offset 100)',
      'uncached',
      () => {
        const sorts = ['volume24hr', 'volume', 'liquidity', 'endDate', 'startDate', 'createdAt', 'volume1wk', 'updatedAt'];
        const status = ['&closed=false', '&active=true', '&active=true&closed=false'];
        const k = i++;
        const order = sorts[k % sorts.length]!;
        const f = status[Math.floor(k / sorts.length) % status.length]!;
        const ascending = Math.floor(k / (sorts.length * status.length)) % 2 === 0;
        return `${m}${f}&tag_id=${tag}&order=${order}&ascending=${ascending}&offset=100&n=${k}`;
      },
    ],
    [
      'events: closed=false, order=volume desc, offsets 0, 1, 2, ...',
      'uncached',
      () => `${base}/events?limit=20&closed=false&order=volume&offset=${i++ % 5000}`,
    ],
    ['markets: active=true, order=endDate asc', 'cached', `${m}&active=true&order=endDate&ascending=true`],
    ['markets: popular tag, order=volume', 'cached', `${m}&tag_id=${tag}&order=volume`],
    ['markets: offset 10,000, order=volume', 'cached', `${m}&offset=10000&closed=false&order=volume`],
    [
      `markets: offset ${Math.floor(markets * 0.9).toLocaleString('en')}, order=volume`,
      'cached',
      `${m}&offset=${Math.floor(markets * 0.9)}&order=volume`,
    ],
    ['markets: by slug', 'uncached', () => `${base}/markets/slug/${sample[i++ % sample.length]!.slug}`],
    ['markets: by condition id', 'uncached', () => `${base}/markets?condition_id=${sample[i++ % sample.length]!.conditionId}`],
    ['events: closed=false, order=volume desc', 'cached', `${base}/events?limit=20&closed=false&order=volume`],
  );
  return out;
}

export async function benchCatalog(
  cacheDir: string,
  markets: number,
  n: number,
  procs: Proc[],
): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const results: Record<string, unknown> = {};
  const report: string[] = [];
  const t0 = performance.now();
  const serve = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
  procs.push(serve);
  const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
  const first = await get(`${base}/markets?limit=20&closed=false&order=volume`);
  const startMs = performance.now() - t0;
  if (first.status !== 200) throw new Error(`first /markets: ${first.status}`);
  results['warmStartMs'] = startMs;
  report.push('### Warm start', table(['process start to first /markets answer (ms)'], [[startMs.toFixed(0)]]));

  const sample = JSON.parse((await get(`${base}/markets?limit=100&offset=5000&order=volume`)).body) as {
    slug: string;
    conditionId: string;
  }[];
  const pages = JSON.parse((await get(`${base}/events/pagination?limit=1`)).body) as { pagination: { totalResults: number } };
  const events = pages.pagination.totalResults;
  const queries = rows({ base, markets, events, n, tag: await popularTag(base), sample });
  const lines: (string | number)[][] = [];
  const lat: Record<string, Latency & { cache: string }> = {};
  for (const [name, cache, url] of queries) {
    const l = await measure(url, n);
    lat[name] = { ...l, cache };
    lines.push([name, cache, l.p50, l.p95, l.p99, l.bytes]);
  }
  // The ceiling for this machine: a constant body of the first query's size, same harness.
  const bytes = lat[queries[0]![0]]!.bytes;
  const baseline = await baselineServer(bytes);
  const bl = await measure(baseline.url, n);
  // Throughput at 50 connections: the service's most common query (a cached answer) against the ceiling.
  const tpService = await throughput(`${base}/markets?limit=20&closed=false&order=volume&ascending=false`);
  const tpBaseline = await throughput(baseline.url);
  baseline.stop();
  results['throughput'] = { service: tpService, baseline: tpBaseline, ratio: tpService.requestsPerSec / tpBaseline.requestsPerSec };
  report.push(
    '### Throughput, 50 connections, 10 s (autocannon)',
    table(
      ['target', 'req/s', 'p50 (ms)', 'p99 (ms)', 'non-2xx'],
      [
        [
          'service: /markets?limit=20&closed=false&order=volume (cached)',
          tpService.requestsPerSec,
          tpService.p50,
          tpService.p99,
          tpService.non2xx,
        ],
        [`baseline: bare Fastify, constant ${bytes} B body`, tpBaseline.requestsPerSec, tpBaseline.p50, tpBaseline.p99, tpBaseline.non2xx],
        ['ratio service / baseline', (tpService.requestsPerSec / tpBaseline.requestsPerSec).toFixed(2), '', '', ''],
      ],
    ),
  );
  lines.push([`baseline: bare Fastify, constant ${bytes} B body`, 'constant', bl.p50, bl.p95, bl.p99, bl.bytes]);
  results['catalog'] = { ...lat, baseline: bl };
  report.push(
    `### Catalog over HTTP: sequential requests on one connection (n = ${n}, after 30 warm-up requests), ms`,
    table(['query', 'response cache', 'p50', 'p95', 'p99', 'bytes'], lines),
  );

  const mem = rssMiB(serve.child.pid!);
  const fileMiB = statSync(path.join(cacheDir, 'catalog.sqlite')).size / 2 ** 20;
  results['memory'] = { rssMiB: mem.rss, peakRssMiB: mem.peak, cacheFileMiB: fileMiB };
  report.push(
    '### Service memory after the queries',
    table(['RSS (MiB)', 'peak RSS (MiB)', 'cache file (MiB)'], [[mem.rss.toFixed(0), mem.peak.toFixed(0), fileMiB.toFixed(0)]]),
  );
  await serve.stop();
  return { results, report };
}
