// @vitest-environment happy-dom
/**
 * The window's side of the stream: quotes merged over the catalog's market, ticks applied once
 * per frame with the direction of the move, freshness from the stream's health, and the view
 * sent to the service as cells mount and unmount (one call for what stays on screen).
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { zeroLiveCounters, type LiveQuote, type LiveStatus } from '../../../src/contract/live.ts';
import type { Market } from '../api.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const views = vi.hoisted(() => [] as { client: string; market: number[]; book?: number }[]);
vi.mock('../api.ts', () => ({
  mode: 'web',
  call: async (op: string, p: { client: string; market: number[]; book?: number }) => {
    if (op !== 'live.view') throw new Error(`unexpected ${op}`);
    views.push(p);
    return { client: p.client, quotes: [], book: null, status: status() };
  },
}));
vi.mock('../live.tsx', () => ({ useLive: () => ({ online: true, connected: true, status: undefined }) }));

const { flush, receiveQuotes, receiveStatus, tickOf } = await import('./store.ts');
const { LiveChance, withQuote } = await import('./LiveCells.tsx');

function status(over: Partial<LiveStatus> = {}, quietMs = 200): LiveStatus {
  return {
    state: 'live',
    url: 'ws://x/ws/market',
    sockets: { total: 1, open: 1 },
    assets: 2,
    owners: 1,
    messagesPerSecond: 5,
    lastMessageAgeMs: quietMs,
    stalled: false,
    staleAfterMs: 10_000,
    hashCheck: 'unknown',
    counters: { ...zeroLiveCounters(), messages: 1 },
    shards: [{ id: 1, state: 'open', assets: 2, lastFrameAgeMs: quietMs, reconnects: 0, quietMs }],
    ...over,
  };
}

const quote = (id: string, p0: number, over: Partial<LiveQuote> = {}): LiveQuote => ({
  marketId: id,
  prices: [p0, Math.round((1 - p0) * 1000) / 1000],
  bestBid: Math.round((p0 - 0.01) * 1000) / 1000,
  bestAsk: Math.round((p0 + 0.01) * 1000) / 1000,
  lastTradePrice: p0,
  state: 'live',
  shard: 1,
  timestamp: 1_000,
  receivedAt: Date.now(),
  ...over,
});

const market = (id: string): Market => ({
  id,
  question: `Market ${id}`,
  outcomes: '["Yes","No"]',
  outcomePrices: '["0.4","0.6"]',
  oneDayPriceChange: 0.05,
  bestBid: 0.39,
  bestAsk: 0.41,
  spread: 0.02,
});

let root: Root;
let host: HTMLElement;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  views.length = 0;
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('withQuote', () => {
  it("puts the stream's prices over the catalog's and moves the 24h change by the live move", () => {
    const m = withQuote(market('1'), quote('1', 0.47));
    expect(JSON.parse(String(m.outcomePrices))).toEqual(['0.47', '0.53']);
    // 24 h ago the price was 0.40 - 0.05 = 0.35; now 0.47: +0.12.
    expect(m['oneDayPriceChange']).toBeCloseTo(0.12, 9);
    expect([m.bestBid, m.bestAsk, m.spread]).toEqual([0.46, 0.48, 0.02]);
  });
  it("keeps the catalog's price of an outcome the stream has none for", () => {
    const m = withQuote(market('1'), quote('1', 0.5, { prices: [0.5, null], bestBid: null, bestAsk: null }));
    expect(JSON.parse(String(m.outcomePrices))).toEqual(['0.5', '0.6']);
    expect(m.bestBid).toBe(0.39);
  });
});

describe('the tick store', () => {
  it('applies a burst once, the newest quote winning, with the direction of the move', () => {
    receiveQuotes([quote('7', 0.3)]);
    flush();
    receiveQuotes([quote('7', 0.32)]);
    receiveQuotes([quote('7', 0.29)]);
    // Nothing is applied before the frame.
    expect(tickOf('7')?.quote.prices[0]).toBe(0.3);
    flush();
    expect(tickOf('7')).toMatchObject({ dir: 'down', moves: 1 });
    expect(tickOf('7')?.quote.prices[0]).toBe(0.29);
  });
});

describe('a live chance cell', () => {
  it('shows the live chance while the socket is fresh, stale past the limit, the sync value without a stream', async () => {
    await act(async () => root.render(createElement(LiveChance, { m: market('42') })));
    // Without a status, nothing claims to be live: the catalog's value, as of the sync.
    expect(host.textContent).toBe('40%');
    expect(host.querySelector('[data-freshness]')?.getAttribute('data-freshness')).toBe('sync');
    await act(async () => {
      receiveStatus(status());
      receiveQuotes([quote('42', 0.55)]);
      flush();
    });
    expect(host.textContent).toBe('55%');
    expect(host.querySelector('[data-freshness]')?.getAttribute('data-freshness')).toBe('live');
    await act(async () => {
      receiveStatus(status({ stalled: true }, 12_000));
      flush();
    });
    const el = host.querySelector('[data-freshness]')!;
    expect(el.getAttribute('data-freshness')).toBe('stale');
    expect(el.getAttribute('title')).toMatch(/Stale: no update for 12 s/);
    await act(async () => {
      receiveStatus(status({ state: 'off', url: null }));
      flush();
    });
    expect(host.textContent).toBe('40%');
  });

  it('asks the service once for the markets that stay on screen', async () => {
    await act(async () => {
      root.render(
        createElement('div', null, [
          createElement(LiveChance, { key: 'a', m: market('100') }),
          createElement(LiveChance, { key: 'b', m: market('101') }),
          createElement(LiveChance, { key: 'c', m: market('100') }),
        ]),
      );
    });
    await vi.waitFor(() => expect(views.length).toBeGreaterThan(0));
    expect(views.at(-1)!.market.sort()).toEqual([100, 101]);
    expect(views.at(-1)!.client).toMatch(/^web-/);
    await act(async () => root.render(createElement(LiveChance, { m: market('101') })));
    await vi.waitFor(() => expect(views.at(-1)!.market).toEqual([101]));
  });
});
