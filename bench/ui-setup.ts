/**
 * The UI bench's data dir: a copy of the bench cache (bench/.cache is never written), made warm
 * the way a user's is after some use online:
 *   - market pages: a first `serve` runs online against a fake upstream's CLOB (the catalog's
 *     upstream unreachable, so no sync touches the copy) and is asked for the chart (1D) and book
 *     of the markets the panel measure opens; its market_page_cache keeps them on disk.
 *   - icons: the icons of the rows the scroll passes are fetched, resized and saved by the
 *     service's own IconCache into `<dir>/icons/`, where the offline service reads them. The
 *     catalog's picture links are Polymarket's S3 (never fetched from a bench), so the fetcher
 *     answers each with the picture the fake upstream serves for that file name (256 px).
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { imageReply, localImageName } from '../src/fake-upstream/images.ts';
import { IconCache } from '../src/icons/icon-cache.ts';
import { silentLogger } from '../src/logger.ts';
import { UpstreamError } from '../src/upstream/client.ts';
import { tempDir } from '../e2e/support/env.ts';
import { cliProcess, get, type Proc } from './lib.ts';

export interface BenchMarket {
  id: string;
  question?: string;
  slug?: string;
  icon?: string | null;
  image?: string | null;
  outcomePrices?: string | null;
}

/** A copy of `cacheDir` in a temp dir; `cleanup` removes it. */
export function copyCache(cacheDir: string): { dir: string; cleanup: () => void } {
  const tmp = tempDir('marketdesk-bench-ui-data-');
  const dir = path.join(tmp.dir, 'data');
  cpSync(cacheDir, dir, { recursive: true });
  return { dir, cleanup: tmp.cleanup };
}

/**
 * Serves `dataDir` online with the fake upstream as its CLOB and hands `work` the base URL;
 * the service is stopped (and its cache saved) when `work` is done.
 */
export async function withOnlineService<T>(dataDir: string, procs: Proc[], work: (base: string) => Promise<T>): Promise<T> {
  const fake = cliProcess(['fake-upstream', '--port', '0', '--synthetic', '10', '--seed', '1', '--limits', 'off']);
  procs.push(fake);
  const clob = (await fake.waitFor(/listening on (http:\/\/\S+)/))[1]!;
  // Port 9 (discard) refuses: the catalog and data APIs are unreachable, so nothing is synced into the copy.
  const none = 'http://127.0.0.1:9';
  const serve = cliProcess([
    'serve',
    '--data-dir',
    dataDir,
    '--gamma-url',
    none,
    '--data-url',
    none,
    '--clob-url',
    clob,
    '--sync-interval',
    '86400',
    '--no-limits',
    '--base-port',
    '0',
    '--clob-port',
    '0',
  ]);
  procs.push(serve);
  try {
    const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    return await work(base);
  } finally {
    await serve.stop();
    await fake.stop();
  }
}

/** Asks the online service for each market's 1D chart and book, so its cache keeps them; checks both have data. */
export async function warmMarketPages(base: string, ids: string[]): Promise<void> {
  for (const id of ids) {
    const chart = await get(`${base}/markets/${id}/chart?interval=1d`);
    const book = await get(`${base}/markets/${id}/book`);
    if (chart.status !== 200 || book.status !== 200) throw new Error(`warming market ${id}: chart ${chart.status}, book ${book.status}`);
    const c = JSON.parse(chart.body) as { outcomes: { history: unknown[] }[] };
    if (!c.outcomes.some((o) => o.history.length > 1)) throw new Error(`market ${id}: the fake upstream gave no price history`);
    // The panel shows the first outcome's book: the measure waits for its best bid and ask.
    const b = JSON.parse(book.body) as { outcomes: { book: { bids: unknown[]; asks: unknown[] } | null }[] };
    const first = b.outcomes[0]?.book;
    if (!first?.bids.length || !first.asks.length) throw new Error(`market ${id}: the fake upstream gave no two-sided book`);
  }
}

/** Caches the icon of each URL in `<dataDir>/icons/` through IconCache; resolves with the icons saved. */
export async function seedIcons(dataDir: string, urls: string[]): Promise<number> {
  const fetcher = {
    getBytes: async (url: string) => {
      const name = localImageName(url);
      const img = name === undefined ? undefined : await imageReply(name);
      if (img?.status !== 200) throw new UpstreamError(`no picture for ${url}`, 404);
      return { contentType: img.contentType, bytes: new Uint8Array(img.body) };
    },
  };
  const cache = new IconCache({ fetcher, dataDir, log: silentLogger, memoryBytes: 1024 * 1024 });
  const todo = [...new Set(urls)];
  let saved = 0;
  // Two at a time: sharp's work runs on libuv's threads, and the machine has few cores.
  const worker = async () => {
    for (let url = todo.pop(); url !== undefined; url = todo.pop()) if (await cache.get(url)) saved++;
  };
  await Promise.all([worker(), worker()]);
  return saved;
}

/** The picture URL the service uses for a market's icon (icon-handlers.ts: `icon`, else `image`). */
export const iconSource = (m: BenchMarket): string | undefined => (m.icon || m.image) ?? undefined;
