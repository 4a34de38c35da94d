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
  const lat: Record<string, Latency> = {};
  const lines: (string | number)[][] = [];
  for (const [name, url] of rows(base, tags)) {
    const l = await measure(url, n);
    lat[name] = l;
    lines.push([name, l.p50, l.p95, l.p99, l.bytes]);
  }
  await serve.stop();
  return {
    results: { tags, latency: lat },
    report: [
      `### Screens over HTTP, uncached: every request a new screen (n = ${n}, after 30 warm-up requests), ms`,
      `Tags: ${tags.join(', ')}. Ranges: chance 0.05..0.30 to 0.70..0.95, volume >= 0..2,000, ends within 1..30 days.`,
      table(['screen', 'p50', 'p95', 'p99', 'bytes'], lines),
    ],
  };
}
