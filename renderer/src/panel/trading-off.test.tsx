// @vitest-environment happy-dom
/**
 * A market that cannot be traded (market-rules.ts tradingIds) shows its one-line reason where the
 * book and the chart would be, and the panel never asks the service for the CLOB's book or chart.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tradingIds } from '../../../src/contract/market-rules.ts';

const calls: string[] = [];
vi.mock('../api.ts', () => ({
  call: (op: string) => {
    calls.push(op);
    return new Promise(() => undefined);
  },
}));
vi.mock('../live.tsx', () => ({ useLive: () => ({ online: true }) }));

const { OrderBook } = await import('./OrderBook.tsx');
const { PriceChart } = await import('./PriceChart.tsx');

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  calls.length = 0;
});

function render(el: ReturnType<typeof createElement>): { host: HTMLElement; done: () => void } {
  const host = document.createElement('div');
  const root = createRoot(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  act(() => root.render(createElement(QueryClientProvider, { client }, el)));
  return { host, done: () => act(() => root.unmount()) };
}

describe('the panel of a market that cannot be traded', () => {
  const off = tradingIds({ outcomes: '["Yes","No"]', clobTokenIds: '["1","2"]' });
  const reason = off.ok ? '' : off.reason;

  it('shows the reason in the book and asks for no book', () => {
    const { host, done } = render(createElement(OrderBook, { id: '7', off: reason }));
    expect(host.querySelector('[data-testid="book-off"]')?.textContent).toBe('Trading is off for this market: it has no protocol version.');
    expect(calls).not.toContain('markets.book');
    done();
  });

  it('shows the reason in the chart, with no interval to pick, and asks for no CLOB chart', () => {
    const { host, done } = render(createElement(PriceChart, { id: '7', off: reason }));
    expect(host.querySelector('[data-testid="chart-off"]')?.textContent).toBe(reason);
    expect(host.querySelector('fieldset.segmented')).toBeNull();
    expect(calls).not.toContain('markets.chart');
    done();
  });

  it('a tradable market asks for both', () => {
    render(createElement(OrderBook, { id: '8' })).done();
    render(createElement(PriceChart, { id: '8' })).done();
    expect(calls).toContain('markets.book');
    expect(calls).toContain('markets.chart');
  });
});
