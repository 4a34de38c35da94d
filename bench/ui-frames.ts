/**
 * Frame times in the page: rAF deltas while the markets grid is scrolled by mouse wheel (and,
 * as the machine's floor, while the page sits idle), with the long animation frames seen
 * meanwhile. In-page code is passed as text so the transpiler's helpers never reach the page.
 */
import type { Page } from 'playwright-core';
import { percentile } from './lib.ts';

/** A long animation frame seen while scrolling (Long Animation Frames API), times in ms. */
export interface Loaf {
  start: number;
  duration: number;
  /** Script run in the frame (scripts of 5 ms or more, as the API reports them). */
  scriptMs: number;
  /** From the start of style and layout to the end of the frame (style, layout, paint, commit). */
  renderMs: number;
}

export interface FrameRun {
  frames: number[];
  starts: number[];
  loafs: Loaf[] | null;
  /** Script time in long animation frames by what ran it ("event-listener IMG.onload", ...), most first. */
  invokers: [string, number][];
  ms: number;
  reached: number;
}

/**
 * rAF deltas are whole vsync intervals (16.7, 33.3, 50 ms) give or take the page's 0.1 ms timer
 * and the begin-frame source's jitter: an idle page measures 16.5 to 16.8 ms. So "over 16.7 ms"
 * counts deltas past 16.7 + SLACK (a missed vsync), and "over 33 ms" those past 33.3 + SLACK (two
 * or more missed in a row). The strict counts (> 16.7, > 33.0) are kept in the JSON too.
 */
export const SLACK_MS = 0.8;
export const VSYNC_MS = 1000 / 60;

export interface FrameSummary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Share (%) of frames that missed a vsync (> 16.7 ms + slack). */
  over16Pct: number;
  /** Share (%) and count of frames that missed two or more (> 33.3 ms + slack). */
  over33Pct: number;
  over33: number;
  strict: { over16_7: number; over33: number };
}

const r1 = (x: number) => Math.round(x * 10) / 10;
const r2 = (x: number) => Math.round(x * 100) / 100;

export function frameSummary(frames: number[]): FrameSummary {
  const s = [...frames].sort((a, b) => a - b);
  const n = s.length;
  const over = (t: number) => s.filter((f) => f > t).length;
  return {
    n,
    p50: r1(percentile(s, 50)),
    p95: r1(percentile(s, 95)),
    p99: r1(percentile(s, 99)),
    max: r1(s[n - 1] ?? 0),
    over16Pct: r2((100 * over(VSYNC_MS + SLACK_MS)) / Math.max(1, n)),
    over33Pct: r2((100 * over(2 * VSYNC_MS + SLACK_MS)) / Math.max(1, n)),
    over33: over(2 * VSYNC_MS + SLACK_MS),
    strict: { over16_7: over(16.7), over33: over(33) },
  };
}

/** Starts recording rAF deltas (and long animation frames) into window.__frames. */
async function startRecording(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const rec = { frames: [], starts: [], loafs: null, invokers: {}, stop: false, t0: performance.now() };
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
          for (const x of e.scripts) {
            // The listener's element and event, or the callback's kind, without ids or URLs.
            const what = x.invokerType + ' ' + String(x.invoker).replace(/#[^.]*|\\[[^\\]]*\\]|https?:[^ ]*/g, '');
            rec.invokers[what] = (rec.invokers[what] || 0) + x.duration;
          }
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
}

async function stopRecording(page: Page, reached: number): Promise<FrameRun> {
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
    const invokers = Object.entries(rec.invokers).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => [k, Math.round(v)]);
    return { frames: rec.frames.slice(1, n), starts: rec.starts.slice(1, n), loafs, invokers, ms: end - rec.t0, reached: ${reached} };
  })()`);
}

/**
 * Scrolls the markets grid down `rows` rows with mouse-wheel events of `delta` px (Chromium
 * coalesces them per frame, as it does a real fling), recording every rAF delta meanwhile.
 * Also records the long animation frames (from the first task of a frame to the end of its
 * rendering, 50 ms or more: the page's main thread held the frame up), to tell a long frame
 * that waited on the page's own work from one that waited on something else.
 */
export async function wheelScroll(page: Page, rows: number, delta: number): Promise<FrameRun> {
  await startRecording(page);
  const box = (await page.locator('.grid-body').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // Rows not loaded yet count too (skeleton rows): the scroll stops at the same place in every run.
  const reached = () =>
    page.evaluate(
      `Math.max(...[...document.querySelectorAll('.grid-body [role="row"][data-index]')].map((r) => Number(r.getAttribute('data-index'))))`,
    ) as Promise<number>;
  let at = 0;
  while (at < rows - 1) {
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, delta);
    at = await reached();
  }
  return stopRecording(page, at);
}

/** rAF deltas of the page left alone for `ms`: what this machine gives an idle page right now. */
export async function idleFrames(page: Page, ms: number): Promise<FrameRun> {
  await startRecording(page);
  await page.waitForTimeout(ms);
  return stopRecording(page, 0);
}

/** Frames over `overMs` that overlap a long animation frame: the page's main thread held them up. */
export function longFramesDuringLoaf(run: FrameRun, overMs = 50): number | null {
  const loafs = run.loafs;
  if (!loafs) return null;
  return run.frames.filter((f, i) => f > overMs && loafs.some((l) => l.start < run.starts[i]! + f && l.start + l.duration > run.starts[i]!))
    .length;
}
