/**
 * `npm run bench -- --only ui`: the web UI against the real service (its own process, offline,
 * on the bench cache), in Debian's Chromium through playwright-core:
 *   - cold start: `serve` spawned to the first markets page rendered (the browser is already open);
 *   - sort: header click to the re-rendered grid (next frame), over sort/filter combinations
 *     the page has not loaded before;
 *   - search: the last keystroke of a term to its results on screen (debounce included);
 *   - scroll: 10,000 rows by mouse wheel (blocks loading on the way), rAF frame times.
 * Timings inside the page use performance.now(); in-page code is passed as text so the
 * transpiler's helpers never reach the page.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { ROOT, cliProcess, get, percentile, table, type Proc } from './lib.ts';
import { tempDir } from '../e2e/support/env.ts';

export interface UiBench {
  results: Record<string, unknown>;
  report: string[];
}

const CHROMIUM = process.env['MARKETDESK_CHROMIUM'] ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TARGET = { coldStartMs: 3000, sortMs: 150, searchMs: 150, frameMs: 50 };

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: s.length, p50: r(percentile(s, 50)), p95: r(percentile(s, 95)), max: r(s[s.length - 1] ?? 0) };
};

type Market = { question?: string; slug?: string; id: string };
const label = (m: Market | undefined) => (m ? (m.question ?? m.slug ?? m.id) : '');

/**
 * Clicks the header button `header` and resolves with the ms until the frame after the grid
 * shows `first` in its first row with the wanted sort direction, settled (not loading).
 */
async function timeSort(page: Page, header: string, dir: 'ascending' | 'descending', first: string): Promise<number> {
  return page.evaluate(`(async () => {
    const header = ${JSON.stringify(header)}, dir = ${JSON.stringify(dir)}, first = ${JSON.stringify(first)};
    const btn = [...document.querySelectorAll('[role="columnheader"] button')].find((b) => b.textContent.trim() === header);
    const done = () => {
      const grid = document.querySelector('.grid');
      const th = btn.closest('[role="columnheader"]');
      const cell = document.querySelector('[data-testid="market-row"][data-index="0"] [role="gridcell"]');
      return grid.getAttribute('data-busy') === 'false' && th.getAttribute('aria-sort') === dir && cell && cell.textContent === first;
    };
    const t0 = performance.now();
    btn.click();
    await new Promise((resolve) => {
      const check = () => (done() ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
    return performance.now() - t0;
  })()`);
}

/** Arms a timer on the search box's next keydown; resolves with ms until `term`'s results show. */
async function armSearchTimer(page: Page, term: string): Promise<void> {
  await page.evaluate(`(() => {
    const term = ${JSON.stringify(term)};
    const input = document.querySelector('input[aria-label="Search markets, events and tags"]');
    window.__searchMs = new Promise((resolve) => {
      input.addEventListener('keydown', (e) => {
        const t0 = performance.now();
        const check = () => {
          const view = document.querySelector('.search-view');
          const ok = view && view.getAttribute('data-query') === term && ['ready', 'empty'].includes(view.getAttribute('data-state'));
          ok ? resolve(performance.now() - t0) : requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }, { once: true });
    });
  })()`);
}

/** A long animation frame seen while scrolling (Long Animation Frames API), times in ms. */
interface Loaf {
  start: number;
  duration: number;
  /** Script run in the frame (scripts of 5 ms or more, as the API reports them). */
  scriptMs: number;
  /** From the start of style and layout to the end of the frame (style, layout, paint, commit). */
  renderMs: number;
}

/**
 * Scrolls the markets grid down `rows` rows with mouse-wheel events of `delta` px (Chromium
 * coalesces them per frame, as it does a real fling), recording every rAF delta meanwhile.
 * Also records the long animation frames (from the first task of a frame to the end of its
 * rendering, 50 ms or more: the page's main thread held the frame up), to tell a long frame
 * that waited on the page's own work from one that waited on something else.
 */
async function wheelScroll(
  page: Page,
  rows: number,
  delta: number,
): Promise<{ frames: number[]; starts: number[]; loafs: Loaf[] | null; ms: number; reached: number }> {
  await page.evaluate(`(() => {
    const rec = { frames: [], starts: [], loafs: null, stop: false, t0: performance.now() };
    window.__frames = rec;
    let last = rec.t0;
    const tick = (now) => {
      rec.frames.push(now - last);
      rec.starts.push(last);
      last = now;
      if (!rec.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    if ((PerformanceObserver.supportedEntryTypes || []).includes('long-animation-frame')) {
      rec.loafs = [];
      rec.collect = (entries) => {
        for (const e of entries) {
          if (e.startTime < rec.t0) continue;
          rec.loafs.push({
            start: e.startTime,
            duration: e.duration,
            scriptMs: e.scripts.reduce((s, x) => s + x.duration, 0),
            renderMs: e.styleAndLayoutStart > 0 ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
          });
        }
      };
      rec.observer = new PerformanceObserver((list) => rec.collect(list.getEntries()));
      rec.observer.observe({ type: 'long-animation-frame' });
    }
  })()`);
  const box = (await page.locator('.grid-body').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const reached = () =>
    page.evaluate(
      `Math.max(...[...document.querySelectorAll('[data-testid="market-row"]')].map((r) => Number(r.getAttribute('data-index'))))`,
    ) as Promise<number>;
  let at = 0;
  while (at < rows - 1) {
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, delta);
    at = await reached();
  }
  return page.evaluate(`(async () => {
    const rec = window.__frames;
    rec.stop = true;
    const n = rec.frames.length, end = performance.now();
    // A long animation frame is reported after it ends: wait one more frame for the last one.
    if (rec.observer) {
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      rec.collect(rec.observer.takeRecords());
      rec.observer.disconnect();
    }
    const loafs = rec.loafs && rec.loafs.filter((l) => l.start < end);
    return { frames: rec.frames.slice(1, n), starts: rec.starts.slice(1, n), loafs, ms: end - rec.t0, reached: ${at} };
  })()`);
}

export async function benchUi(cacheDir: string, procs: Proc[]): Promise<UiBench> {
  if (!existsSync(CHROMIUM)) {
    return { results: { skipped: `no Chromium at ${CHROMIUM}` }, report: [`### Web UI: skipped (no Chromium at ${CHROMIUM})`] };
  }
  // The page served at /app/ must be the current build.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the renderer failed');

  const profile = tempDir('marketdesk-bench-ui-');
  const browser = await chromium.launchPersistentContext(profile.dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
  });
  const results: Record<string, unknown> = {};
  const report: string[] = [];
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(300_000);
    await page.goto('about:blank');

    // ---- cold start ----------------------------------------------------------------------
    const t0 = performance.now();
    const serve = cliProcess(['serve', '--offline', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
    procs.push(serve);
    const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    const listening = performance.now() - t0;
    await page.goto(`${base}/app/`);
    await page.waitForSelector('[data-testid="market-row"][data-index="0"]');
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => r()))');
    const coldStartMs = performance.now() - t0;
    results['coldStart'] = { serveListeningMs: Math.round(listening), firstMarketsPageMs: Math.round(coldStartMs) };

    const api = async <T>(p: string) => JSON.parse((await get(`${base}${p}`)).body) as T;
    /** The service's share: the same work as the page's request (another limit, so not a response-cache hit). */
    const serviceMs = async (p: string) => {
      const t = performance.now();
      await get(`${base}${p}`);
      return performance.now() - t;
    };

    // ---- sort -----------------------------------------------------------------------------
    // Every sortable column, both directions, under three status filters: none loaded before.
    const columns: [string, string, boolean][] = [
      ['Volume', 'volumeNum', true],
      ['24h vol', 'volume24hr', true],
      ['Liquidity', 'liquidityNum', true],
      ['Ends', 'endDate', false],
      ['Market', 'question', false],
    ];
    const sortMs: number[] = [];
    const sortServiceMs: number[] = [];
    for (const closed of ['no', 'any', 'yes'] as const) {
      await page.getByLabel('Closed filter').selectOption(closed);
      await page.waitForSelector('.grid[data-busy="false"]');
      const filter = closed === 'any' ? '' : `&closed=${closed === 'yes'}`;
      for (const [header, field, descFirst] of columns) {
        const current = await page
          .locator('[role="columnheader"]', { has: page.locator(`.th-label:text-is("${header}")`) })
          .getAttribute('aria-sort');
        // A click on an unsorted column sorts it its default way; on the sorted one, it flips.
        const first: boolean = current === 'none' ? descFirst : current === 'ascending';
        for (const desc of [first, !first]) {
          const [top] = await api<Market[]>(`/markets?limit=1&order=${field}&ascending=${!desc}${filter}`);
          sortMs.push(await timeSort(page, header, desc ? 'descending' : 'ascending', label(top)));
          sortServiceMs.push(await serviceMs(`/markets?limit=99&offset=0&order=${field}&ascending=${!desc}${filter}`));
        }
      }
    }
    results['sort'] = { ...stats(sortMs), service: stats(sortServiceMs), ui: stats(sortMs.map((t, i) => t - sortServiceMs[i]!)) };

    // ---- search ---------------------------------------------------------------------------
    const events = await api<{ title?: string }[]>('/events?limit=100&offset=2000&order=id');
    const words = [...new Set(events.flatMap((e) => (e.title ?? '').toLowerCase().split(/[^a-z]+/)).filter((w) => w.length >= 5))].slice(
      0,
      20,
    );
    const searchMs: number[] = [];
    const searchServiceMs: number[] = [];
    const input = page.getByLabel('Search markets, events and tags');
    for (const w of words) {
      await input.fill('');
      await input.pressSequentially(w.slice(0, -1));
      await page.waitForSelector(`.search-view[data-query="${w.slice(0, -1)}"]:is([data-state="ready"], [data-state="empty"])`);
      await armSearchTimer(page, w);
      await input.press(w.slice(-1));
      searchMs.push((await page.evaluate('window.__searchMs')) as number);
      searchServiceMs.push(await serviceMs(`/public-search?q=${encodeURIComponent(w)}&limit_per_type=9`));
    }
    results['search'] = {
      ...stats(searchMs),
      terms: words.length,
      service: stats(searchServiceMs),
      ui: stats(searchMs.map((t, i) => t - searchServiceMs[i]!)),
    };

    // ---- scroll ---------------------------------------------------------------------------
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Markets', exact: true }).click();
    await page.getByLabel('Closed filter').selectOption('any');
    await page.waitForSelector('.grid[data-busy="false"][data-state="ready"]');
    const scroll = await wheelScroll(page, 10_000, 1200);
    const slow = scroll.frames.filter((f) => f > TARGET.frameMs).length;
    // Attribution only (the count above is the measure): a frame over 50 ms that overlaps a long
    // animation frame waited on the page's main thread; one that does not waited on something
    // else (compositor, raster, or the CPU given to other processes).
    const loafs = scroll.loafs;
    const slowWithLoaf = loafs
      ? scroll.frames.filter(
          (f, i) => f > TARGET.frameMs && loafs.some((l) => l.start < scroll.starts[i]! + f && l.start + l.duration > scroll.starts[i]!),
        ).length
      : null;
    results['loadAverage'] = os.loadavg()[0];
    results['scroll'] = {
      rows: scroll.reached + 1,
      seconds: Math.round(scroll.ms / 100) / 10,
      frames: stats(scroll.frames),
      framesOver50ms: slow,
      longAnimationFrames: loafs
        ? {
            ...(loafs.length ? stats(loafs.map((l) => l.duration)) : { n: 0 }),
            maxScriptMs: Math.round(Math.max(0, ...loafs.map((l) => l.scriptMs))),
            maxStyleLayoutPaintMs: Math.round(Math.max(0, ...loafs.map((l) => l.renderMs))),
            framesOver50msDuringOne: slowWithLoaf,
          }
        : 'not supported',
    };

    const f = results['scroll'] as { rows: number; seconds: number; frames: ReturnType<typeof stats> };
    type Split = ReturnType<typeof stats> & { service: ReturnType<typeof stats>; ui: ReturnType<typeof stats> };
    const sort = results['sort'] as Split;
    const search = results['search'] as Split;
    report.push(
      `### Web UI (Chromium, headless, software rendering; offline serve on this cache; ` +
        `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the end)`,
      table(
        ['measure', 'n', 'p50', 'p95', 'max', 'target'],
        [
          ['cold start: serve spawned to first markets page (ms)', 1, Math.round(coldStartMs), '', '', `< ${TARGET.coldStartMs}`],
          ['  of which: serve listening (ms)', 1, Math.round(listening), '', '', ''],
          ['sort click to re-rendered grid (ms)', sort.n, sort.p50, sort.p95, sort.max, `< ${TARGET.sortMs}`],
          ['  the same query over HTTP alone (ms)', sort.service.n, sort.service.p50, sort.service.p95, sort.service.max, ''],
          ['search keystroke to results (ms)', search.n, search.p50, search.p95, search.max, `< ${TARGET.searchMs}`],
          ['  the same search over HTTP alone (ms)', search.service.n, search.service.p50, search.service.p95, search.service.max, ''],
          [
            `scroll ${f.rows.toLocaleString('en')} rows in ${f.seconds} s: frame time (ms)`,
            f.frames.n,
            f.frames.p50,
            f.frames.p95,
            f.frames.max,
            `< ${TARGET.frameMs}`,
          ],
          ['  frames over 50 ms', '', '', '', slow, '0'],
          ...(loafs
            ? [
                [
                  '  long animation frames while scrolling (main thread held a frame 50 ms+; ms)',
                  loafs.length,
                  loafs.length ? stats(loafs.map((l) => l.duration)).p50 : '',
                  loafs.length ? stats(loafs.map((l) => l.duration)).p95 : '',
                  loafs.length ? stats(loafs.map((l) => l.duration)).max : '',
                  '',
                ],
                [`  frames over 50 ms during a long animation frame (the rest waited on something else)`, '', '', '', slowWithLoaf!, ''],
              ]
            : []),
        ],
      ),
    );
    await serve.stop();
  } finally {
    await browser.close();
    profile.cleanup();
  }
  return { results, report };
}
