/**
 * In-page timers of the UI bench: a sort click or a filter change to the re-rendered grid, a row click to the
 * side panel with its chart drawn and its book's best bid and ask shown. Each returns ms from
 * the input (performance.now() in the page) to the frame that shows the result. In-page code is
 * passed as text so the transpiler's helpers never reach the page.
 */
import type { Page } from 'playwright-core';

/** The grid's first row shows `first` ('' = the grid is empty), the count reads `count` markets, nothing loading. */
const GRID_SHOWS = `(first, count) => {
  const grid = document.querySelector('.grid');
  if (!grid || grid.getAttribute('data-busy') !== 'false') return false;
  const text = count.toLocaleString('en-US') + ' market' + (count === 1 ? '' : 's');
  const shown = document.querySelector('[data-testid="row-count"]');
  if (!shown || shown.textContent !== text) return false;
  if (first === '') return grid.getAttribute('data-state') === 'empty';
  const row = document.querySelector('[data-testid="market-row"][data-index="0"]');
  const name = row && (row.querySelector('.name-text') || row.querySelector('[role="gridcell"]'));
  return !!name && name.textContent === first;
}`;

/** Waits in the page, one check per frame, until `cond()` holds; the page's time since `t0`. */
const UNTIL_FRAME = `(cond, t0) => new Promise((resolve) => {
  const check = () => (cond() ? resolve(performance.now() - t0) : requestAnimationFrame(check));
  requestAnimationFrame(check);
})`;

/**
 * Where a timed interaction's time went, from Resource Timing: the page's API requests started
 * in [t0, t0 + ms] (icons aside), when the first was sent and when the last answer had arrived.
 * The rest, to `ms`, is the page's own work: React's render and commit, style, layout, paint.
 */
export interface Net {
  requests: number;
  /** Input to the first request sent. */
  sentMs: number;
  /** Input to the last answer received. */
  answeredMs: number;
}

const NET = `(t0, ms) => {
  const rs = performance.getEntriesByType('resource')
    .filter((e) => e.startTime >= t0 && e.startTime <= t0 + ms && !e.name.includes('/icons/'));
  return {
    requests: rs.length,
    sentMs: rs.length ? Math.min(...rs.map((e) => e.startTime)) - t0 : 0,
    answeredMs: rs.length ? Math.max(...rs.map((e) => e.responseEnd)) - t0 : 0,
  };
}`;

/** Empties the Resource Timing buffer (250 entries by default: a scroll's icons would fill it) before a timed input. */
const FRESH_TIMINGS = `performance.setResourceTimingBufferSize(10000); performance.clearResourceTimings();`;

export interface Timed {
  ms: number;
  net: Net;
}

/**
 * Clicks the header button `header` and resolves with the ms until the frame after the grid
 * shows `first` in its first row with the wanted sort direction, settled (not loading).
 */
export function timeSort(page: Page, header: string, dir: 'ascending' | 'descending', first: string): Promise<Timed> {
  return page.evaluate(`(async () => {
    const until = ${UNTIL_FRAME}, net = ${NET};
    const header = ${JSON.stringify(header)}, dir = ${JSON.stringify(dir)}, first = ${JSON.stringify(first)};
    // By the label: the button also holds the sort mark.
    const labels = [...document.querySelectorAll('[role="columnheader"] .th-label')];
    const btn = labels.find((l) => l.textContent.trim() === header)?.closest('button');
    const done = () => {
      const grid = document.querySelector('.grid');
      const th = btn.closest('[role="columnheader"]');
      const row = document.querySelector('[data-testid="market-row"][data-index="0"]');
      const name = row && (row.querySelector('.name-text') || row.querySelector('[role="gridcell"]'));
      return grid.getAttribute('data-busy') === 'false' && th.getAttribute('aria-sort') === dir && name && name.textContent === first;
    };
    ${FRESH_TIMINGS}
    const t0 = performance.now();
    btn.click();
    const ms = await until(done, t0);
    return { ms, net: net(t0, ms) };
  })()`);
}

/**
 * Sets the filter select `label` ("Closed filter", "Tag filter", ...) to `value` as a user's
 * choice does (a change event), and resolves with the ms until the grid shows `first` in its first
 * row and `count` markets in the filter bar.
 */
export function timeFilter(page: Page, label: string, value: string, first: string, count: number): Promise<Timed> {
  return page.evaluate(`(async () => {
    const shows = ${GRID_SHOWS}, until = ${UNTIL_FRAME}, net = ${NET};
    const first = ${JSON.stringify(first)}, count = ${count};
    const select = document.querySelector('select[aria-label=${JSON.stringify(label)}]');
    if (!select) throw new Error('no select ' + ${JSON.stringify(label)});
    if (![...select.options].some((o) => o.value === ${JSON.stringify(value)})) throw new Error('no option ' + ${JSON.stringify(value)});
    ${FRESH_TIMINGS}
    const t0 = performance.now();
    select.value = ${JSON.stringify(value)};
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const ms = await until(() => shows(first, count), t0);
    return { ms, net: net(t0, ms) };
  })()`);
}

/** The grid already shows these rows (so a filter change to them would be timed as nothing). */
export function gridShows(page: Page, first: string, count: number): Promise<boolean> {
  return page.evaluate(`(${GRID_SHOWS})(${JSON.stringify(first)}, ${count})`);
}

export interface PanelTiming {
  /** Click to the panel's title (the market from the catalog). */
  titleMs: number;
  /** Click to the chart's canvas drawn and the book's best bid and ask shown. */
  readyMs: number;
  net: Net;
}

/**
 * Clicks the markets grid's row titled `question` and resolves with the ms until the side
 * panel shows that market, its price chart's canvas and its book's best bid and ask.
 */
export function timePanel(page: Page, question: string): Promise<PanelTiming> {
  return page.evaluate(`(async () => {
    const until = ${UNTIL_FRAME}, net = ${NET};
    const q = ${JSON.stringify(question)};
    const row = [...document.querySelectorAll('[data-testid="market-row"]')].find((r) => r.querySelector('.name-text')?.textContent === q);
    if (!row) throw new Error('no row ' + q);
    if (document.querySelector('[data-testid="detail"]')) throw new Error('a panel is already open');
    const title = () => document.querySelector('[data-testid="detail-title"]')?.textContent === q;
    const filled = (id) => {
      const t = document.querySelector('[data-testid="' + id + '"]')?.textContent?.trim();
      return !!t && t !== '—';
    };
    const ready = () => {
      if (!title()) return false;
      const canvas = document.querySelector('[data-testid="price-chart-canvas"] canvas');
      return !!canvas && canvas.width > 0 && filled('book-best-bid') && filled('book-best-ask');
    };
    ${FRESH_TIMINGS}
    const t0 = performance.now();
    row.click();
    const [titleMs, readyMs] = await Promise.all([until(title, t0), until(ready, t0)]);
    return { titleMs, readyMs, net: net(t0, readyMs) };
  })()`);
}

/** Closes the side panel (Esc) and waits until it is gone. */
export async function closePanel(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.waitForSelector('[data-testid="detail"]', { state: 'detached' });
}
