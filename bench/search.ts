/**
 * `npm run bench -- --only search`: GET /public-search latency through the real service (its
 * own process, offline, on the bench cache) for the kinds of query that cost differently:
 * one word, two words, a one-letter prefix (the worst case: every event matches), a word in
 * every document, a rare word, a phrase. Then the index's share of the cache file: live pages
 * with and without the search objects, counted on a copy in this process.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { cliProcess, get, measure, table, type Latency, type Proc } from './lib.ts';
import { readWhole, sqlEngine } from '../src/store/sqlite.ts';

export interface SearchBench {
  results: Record<string, unknown>;
  report: string[];
}

type Answer = { pagination: { totalResults: number } };

/** A title word few events have (a "rare word" that exists in this catalog). */
async function rareWord(base: string): Promise<string> {
  const events = JSON.parse((await get(`${base}/events?limit=100&offset=1000&order=id`)).body) as { title?: string }[];
  const candidates = [...new Set(events.flatMap((e) => (e.title ?? '').toLowerCase().split(/[^a-z]+/)))].filter((w) => w.length >= 6);
  for (const w of candidates) {
    const n = (JSON.parse((await get(`${base}/public-search?q=${w}&limit_per_type=1&search_tags=false`)).body) as Answer).pagination
      .totalResults;
    if (n >= 1 && n <= 20) return w;
  }
  throw new Error('no rare title word found');
}

/**
 * Two-word queries with at least a page (25) of results: pairs of the catalog's commonest
 * title words short of near-universal (in at most a fifth of the titles), each pair once.
 */
async function commonPairs(base: string, want: number): Promise<string[]> {
  const counts = new Map<string, number>();
  for (let offset = 0; offset < 40_000; offset += 2_000) {
    const events = JSON.parse((await get(`${base}/events?limit=100&offset=${offset}&order=id`)).body) as { title?: string }[];
    for (const e of events)
      for (const w of new Set((e.title ?? '').toLowerCase().split(/[^a-z]+/))) if (w.length >= 4) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  // Near-universal words ("will", "price") are stop words to a reader; their cost has its own
  // row above ("word in every event").
  const sampled = 20 * 100;
  const words = [...counts]
    .filter(([, c]) => c <= sampled / 5)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 120)
    .map(([w]) => w);
  const out: string[] = [];
  for (let gap = 1; gap < words.length && out.length < want; gap++) {
    for (let i = 0; i + gap < words.length && out.length < want; i++) {
      const q = `${words[i]} ${words[i + gap]}`;
      const r = JSON.parse(
        (await get(`${base}/public-search?q=${encodeURIComponent(q)}&limit_per_type=1&search_tags=false`)).body,
      ) as Answer;
      if (r.pagination.totalResults >= 25) out.push(q);
    }
  }
  if (out.length < 20) throw new Error(`only ${out.length} common word pairs with a page of results`);
  return out;
}

/** Live (non-free) pages of the file, and of the same file without the search objects. */
async function indexShare(file: string): Promise<{ pageSize: number; live: number; withoutSearch: number }> {
  const SQL = await sqlEngine();
  const db = new SQL.Database(await readWhole(file));
  try {
    const one = (sql: string) => Number(db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    const live = () => one('PRAGMA page_count') - one('PRAGMA freelist_count');
    const before = live();
    const names = (type: string, like: string) =>
      db.exec(`SELECT name FROM sqlite_master WHERE type = '${type}' AND name LIKE '${like}'`)[0]?.values.map((r) => String(r[0])) ?? [];
    for (const t of names('trigger', 'search%')) db.exec(`DROP TRIGGER "${t}"`);
    db.exec(
      'DROP VIEW IF EXISTS search_docs; DROP TABLE IF EXISTS search_fts; DROP TABLE IF EXISTS tag_fts; ' +
        'DROP TABLE IF EXISTS search_order; DROP TABLE IF EXISTS search_dirty',
    );
    return { pageSize: one('PRAGMA page_size'), live: before, withoutSearch: live() };
  } finally {
    db.close();
  }
}

export async function benchSearch(cacheDir: string, n: number, procs: Proc[]): Promise<SearchBench> {
  const t0 = performance.now();
  const serve = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
  procs.push(serve);
  const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
  // A cache written before the index existed is migrated (index built) at this first start.
  const first = await get(`${base}/public-search?q=bitcoin`);
  const firstMs = performance.now() - t0;
  if (first.status !== 200) throw new Error(`first /public-search: ${first.status} ${first.body.slice(0, 200)}`);

  const rare = await rareWord(base);
  const queries: [string, string][] = [
    ['one word (bitcoin)', 'bitcoin'],
    ['two words (bitcoin december)', 'bitcoin december'],
    ['one-letter prefix (b)', 'b'],
    ['word in every event (will)', 'will'],
    [`rare word (${rare})`, rare],
    ['phrase ("up or down")', '"up or down"'],
  ];
  const rows: (string | number)[][] = [];
  const lat: Record<string, Latency & { totalResults: number }> = {};
  for (const [name, q] of queries) {
    const url = `${base}/public-search?q=${encodeURIComponent(q)}`;
    const total = (JSON.parse((await get(url)).body) as Answer).pagination.totalResults;
    // An ignored parameter makes every URL new, so the face's response cache never answers:
    // these are the costs of searching, not of a cache hit.
    let i = 0;
    const l = await measure(() => `${url}&nocache=${i++}`, n, 10);
    lat[name] = { ...l, totalResults: total };
    rows.push([name, total, l.p50, l.p95, l.p99, l.bytes]);
  }
  // Many users, many searches: a different pair of common title words each time (a full page
  // of results each), so nothing kept for one query (its words' statistics) serves the next.
  const pairs = await commonPairs(base, n + 10);
  let k = 0;
  const varied = await measure(() => `${base}/public-search?q=${encodeURIComponent(pairs[k++ % pairs.length]!)}`, n, 10);
  const variedName = `two words, ${pairs.length} different pairs of common words (each in at most 20 % of titles)`;
  lat[variedName] = { ...varied, totalResults: -1 };
  rows.push([variedName, 'varies', varied.p50, varied.p95, varied.p99, varied.bytes]);
  // The desk's search (GET /desk/search, the app's Search view): the same pairs, plus which
  // markets matched (a tokenizer pass over a page's titles and questions).
  k = 0;
  const desk = await measure(() => `${base}/desk/search?q=${encodeURIComponent(pairs[k++ % pairs.length]!)}`, n, 10);
  const deskName = `desk search (/desk/search, 10 a page), the same ${pairs.length} pairs`;
  lat[deskName] = { ...desk, totalResults: -1 };
  rows.push([deskName, 'varies', desk.p50, desk.p95, desk.p99, desk.bytes]);
  // A typo in the pair's first word (one letter dropped from its middle), so nothing matches as
  // typed and the service corrects it: the miss, the word list (built once, on the first), the retry.
  const typos = pairs.map((q) => {
    const [a, b] = q.split(' ') as [string, string];
    const mid = a.length >> 1;
    return `${a.slice(0, mid)}${a.slice(mid + 1)} ${b}`;
  });
  const firstTypo = performance.now();
  await get(`${base}/desk/search?q=${encodeURIComponent(typos[0]!)}&nocache=first`);
  const vocabularyMs = performance.now() - firstTypo;
  k = 0;
  const typo = await measure(() => `${base}/desk/search?q=${encodeURIComponent(typos[k++ % typos.length]!)}`, n, 10);
  const typoName = `desk search, the pairs with a typo (corrected; the word list built before, in ${vocabularyMs.toFixed(0)} ms)`;
  lat[typoName] = { ...typo, totalResults: -1 };
  rows.push([typoName, 'varies', typo.p50, typo.p95, typo.p99, typo.bytes]);
  const tags = await measure(() => `${base}/tags/ranked?nocache=${k++}`, n, 10);
  lat['ranked tags (/tags/ranked)'] = { ...tags, totalResults: -1 };
  rows.push(['ranked tags (/tags/ranked)', '-', tags.p50, tags.p95, tags.p99, tags.bytes]);
  // For comparison: the same URL again and again, answered by the response cache.
  const hit = await measure(`${base}/public-search?q=bitcoin%20december`, n, 10);
  lat['two words, repeated (response cache hit)'] = { ...hit, totalResults: lat[queries[1]![0]]!.totalResults };
  rows.push(['two words, repeated (response cache hit)', lat[queries[1]![0]]!.totalResults, hit.p50, hit.p95, hit.p99, hit.bytes]);
  await serve.stop(); // persists the cache, index included

  const file = path.join(cacheDir, 'catalog.sqlite');
  const fileBytes = statSync(file).size;
  // The share is measured on a copy in wasm memory (dropping the search objects): past 2 GiB it cannot fit.
  if (fileBytes > 2 ** 31) {
    return {
      results: { firstAnswerMs: firstMs, latency: lat, index: null },
      report: [
        `### Search over HTTP, each URL new (no response-cache hits): sequential requests on one connection (n = ${n}), ms`,
        table(['query', 'totalResults', 'p50', 'p95', 'p99', 'bytes'], rows),
        `Search index size: not measured (the ${(fileBytes / 2 ** 30).toFixed(1)} GiB file does not fit the in-memory copy it needs).`,
      ],
    };
  }
  const share = await indexShare(file);
  const mib = (pages: number) => (pages * share.pageSize) / 2 ** 20;
  const indexMiB = mib(share.live - share.withoutSearch);
  const fileMiB = statSync(file).size / 2 ** 20;
  return {
    results: {
      firstAnswerMs: firstMs,
      latency: lat,
      index: { fileMiB, liveMiB: mib(share.live), withoutSearchMiB: mib(share.withoutSearch), indexMiB, share: indexMiB / mib(share.live) },
    },
    report: [
      `### Search over HTTP, each URL new (no response-cache hits): sequential requests on one connection (n = ${n}), ms`,
      table(['query', 'totalResults', 'p50', 'p95', 'p99', 'bytes'], rows),
      '### Search index size',
      table(
        [
          'cache file (MiB)',
          'live pages (MiB)',
          'without the search objects (MiB)',
          'index (MiB)',
          'index share of live pages',
          'start to first search answer (ms)',
        ],
        [
          [
            fileMiB.toFixed(0),
            mib(share.live).toFixed(1),
            mib(share.withoutSearch).toFixed(1),
            indexMiB.toFixed(1),
            `${((100 * indexMiB) / mib(share.live)).toFixed(1)} %`,
            firstMs.toFixed(0),
          ],
        ],
      ),
    ],
  };
}
