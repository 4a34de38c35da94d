/**
 * `--only screens`: saved-screen listings (issue 16) over HTTP against the real service (its own
 * process, offline, on the synced cache). Every request is a new screen (its ranges, end window
 * and tag move with the request number), so none is answered by the response cache: each answer
 * is the screen's own cost. The goal: three ranges and a tag, p99 < 20 ms at 100,000 markets.
 */
import { cliProcess, get, measure, table, type Latency, type Proc } from './lib.ts';

type Row = [name: string, url: () => string];

/** The slugs of the most used tags among the first ones: a popular tag is the planner's worst case. */
async function popularTags(base: string, n: number): Promise<string[]> {
  const tags = JSON.parse((await get(`${base}/tags?limit=40`)).body) as { id: string; slug?: string }[];
  const counted: [string, number][] = [];
  for (const t of tags) {
    if (!t.slug) continue;
    const { count } = JSON.parse((await get(`${base}/markets/count?tag_id=${t.id}`)).body) as { count: number };
    counted.push([t.slug, count]);
  }
  return counted
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([slug]) => slug);
}

/**
 * Words of the catalog's questions (markets) or titles (events) by how many of a sample of 2,000
 * rows hold them: `common`, the commonest (as "will"); `mid`, eight words each in 1 to 10 % of them.
 */
async function sampleWords(base: string, list: 'markets' | 'events'): Promise<{ common: string; mid: string[] }> {
  const counts = new Map<string, number>();
  const total = (JSON.parse((await get(`${base}/${list}/count`)).body) as { count: number }).count;
  const step = Math.max(100, Math.floor(total / 20 / 100) * 100);
  for (let offset = 0; offset < 20 * step; offset += step) {
    const rows = JSON.parse((await get(`${base}/${list}?limit=100&offset=${offset}&order=id`)).body) as Record<string, unknown>[];
    for (const r of rows) {
      const text = String(r[list === 'markets' ? 'question' : 'title'] ?? '').toLowerCase();
      for (const w of new Set(text.split(/[^a-z]+/))) if (w.length >= 4) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  const byCount = [...counts].sort((a, b) => b[1] - a[1]);
  const mid = byCount.filter(([, c]) => c >= 20 && c <= 200).map(([w]) => w);
  return { common: byCount[0]![0], mid: mid.filter((_, i) => i % Math.max(1, Math.floor(mid.length / 8)) === 0).slice(0, 8) };
}

/** A market screen of three ranges (chance, volume, end window) and a tag, different at every call. */
function marketScreen(tags: string[]): (i: number) => string {
  return (i) => {
    const lo = 0.05 + (i % 6) * 0.05;
    return (
      `md_chance_min=${lo.toFixed(2)}&md_chance_max=${(1 - lo).toFixed(2)}&md_volume_min=${(i % 9) * 250}` +
      `&md_ends_within_hours=${24 * (1 + (i % 30))}&md_tag=${tags[i % tags.length]}&n=${i}`
    );
  };
}

/** An event screen of three ranges (volume, liquidity, end window) and a tag, different at every call. */
function eventScreen(tags: string[]): (i: number) => string {
  return (i) =>
    `md_volume_min=${(i % 9) * 500}&md_liquidity_min=${(i % 4) * 100}` +
    `&md_ends_within_hours=${24 * (1 + (i % 30))}&md_tag=${tags[i % tags.length]}&n=${i}`;
}

interface Words {
  markets: { common: string; mid: string[] };
  events: { common: string; mid: string[] };
}

/** Text screens (md_q, the search index) and, for events, Gamma's `title_search` (a LIKE scan) with the same ranges. */
function textRows(base: string, tags: string[], words: Words): Row[] {
  let i = 0;
  const market = marketScreen(tags);
  const event = eventScreen(tags);
  const open = 'active=true&closed=false&order=volume24hr';
  const mid = (w: { mid: string[] }) => w.mid[i % w.mid.length]!;
  return [
    [
      'markets: text (a word in 1-10 % of questions) + 3 ranges + tag, open, order=volume24hr desc, limit 20',
      () => `${base}/markets?limit=20&${open}&md_q=${mid(words.markets)}&${market(i++)}`,
    ],
    [
      `markets: text (the commonest word, "${words.markets.common}") + 3 ranges + tag, open, order=volume24hr desc, limit 20`,
      () => `${base}/markets?limit=20&${open}&md_q=${words.markets.common}&${market(i++)}`,
    ],
    [
      'markets/count: text (1-10 % word) + 3 ranges + tag, open',
      () => `${base}/markets/count?active=true&closed=false&md_q=${mid(words.markets)}&${market(i++)}`,
    ],
    [
      'markets: text (1-10 % word) alone, open, order=volume24hr desc, limit 20',
      () => `${base}/markets?limit=20&${open}&md_q=${mid(words.markets)}&n=${i++}`,
    ],
    [
      'markets/count: text (1-10 % word) alone, open',
      () => `${base}/markets/count?active=true&closed=false&md_q=${mid(words.markets)}&n=${i++}`,
    ],
    // Worst case for a sort's index walk: nothing matches, so every row is tested.
    [
      'markets: text (a word no question holds) alone, open, order=volume24hr desc, limit 20',
      () => `${base}/markets?limit=20&${open}&md_q=zzqx${i++}`,
    ],
    [
      'events: text (md_q, a word in 1-10 % of titles) + 3 ranges + tag, open, order=volume24hr desc, limit 20',
      () => `${base}/events?limit=20&${open}&md_q=${mid(words.events)}&${event(i++)}`,
    ],
    [
      'events: the same with title_search (a LIKE scan) for md_q',
      () => `${base}/events?limit=20&${open}&title_search=${mid(words.events)}&${event(i++)}`,
    ],
  ];
}

function rows(base: string, tags: string[]): Row[] {
  let i = 0;
  const screen = marketScreen(tags);
  const open = 'active=true&closed=false';
  return [
    [
      'markets: 3 ranges + tag, open, order=volume24hr desc, limit 20',
      () => `${base}/markets?limit=20&${open}&order=volume24hr&${screen(i++)}`,
    ],
    ['markets: 3 ranges + tag, open, id order, limit 20', () => `${base}/markets?limit=20&${open}&${screen(i++)}`],
    ['markets: 3 ranges + tag, no status, id order, limit 20', () => `${base}/markets?limit=20&${screen(i++)}`],
    [
      'markets: 3 ranges + tag, open, order=volume24hr desc, limit 100 (a grid block)',
      () => `${base}/markets?limit=100&${open}&order=volume24hr&${screen(i++)}`,
    ],
    ['markets/count: 3 ranges + tag, open', () => `${base}/markets/count?${open}&${screen(i++)}`],
    [
      'markets: 24h change + spread + liquidity, open, order=volume24hr desc, limit 20',
      () =>
        `${base}/markets?limit=20&${open}&order=volume24hr&md_change24h_min=${(i % 5) * 0.01}&md_spread_max=0.05` +
        `&md_liquidity_min=${(i % 7) * 500}&n=${i++}`,
    ],
    [
      'events: volume + liquidity + end window + tag, open, order=volume24hr desc, limit 20',
      () =>
        `${base}/events?limit=20&${open}&order=volume24hr&md_volume_min=${(i % 9) * 500}&md_liquidity_min=${(i % 4) * 100}` +
        `&md_ends_within_hours=${24 * (1 + (i % 30))}&md_tag=${tags[i % tags.length]}&n=${i++}`,
    ],
  ];
}

export async function benchScreens(
  cacheDir: string,
  n: number,
  procs: Proc[],
): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const serve = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
  procs.push(serve);
  const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
  const tags = await popularTags(base, 5);
  const words: Words = { markets: await sampleWords(base, 'markets'), events: await sampleWords(base, 'events') };
  const lat: Record<string, Latency> = {};
  const lines: (string | number)[][] = [];
  for (const [name, url] of [...rows(base, tags), ...textRows(base, tags, words)]) {
    const l = await measure(url, n);
    lat[name] = l;
    lines.push([name, l.p50, l.p95, l.p99, l.bytes]);
  }
  await serve.stop();
  return {
    results: { tags, words, latency: lat },
    report: [
      `### Screens over HTTP, uncached: every request a new screen (n = ${n}, after 30 warm-up requests), ms`,
      `Tags: ${tags.join(', ')}. Ranges: chance 0.05..0.30 to 0.70..0.95, volume >= 0..2,000, ends within 1..30 days.`,
      `Text (md_q): markets ${words.markets.mid.join(', ')}; events ${words.events.mid.join(', ')}.`,
      table(['screen', 'p50', 'p95', 'p99', 'bytes'], lines),
    ],
  };
}
