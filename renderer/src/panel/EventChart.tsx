/**
 * An event's chart, as Polymarket draws it: the chance (first, "Yes", price) of its leading
 * markets over time, one line each, from each market's `markets.chart` (the CLOB's
 * `/prices-history`, kept by the service for offline use). The leaders are rankMarkets' first
 * open, tradable markets; a one-market event draws its market's outcomes instead.
 */
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CHART_INTERVALS, type ChartInterval } from '../../../src/contract/enums.ts';
import { tradingIds } from '../../../src/contract/market-rules.ts';
import { call, type Market } from '../api.ts';
import { Segmented } from '../components/Segmented.tsx';
import { ChartCanvas } from './ChartCanvas.tsx';
import { CoverageNote } from './ChartCoverage.tsx';
import { alignHistories, type History } from './chart-data.ts';

/** How many leading markets the chart draws (Polymarket's event chart draws four). */
export const EVENT_CHART_LINES = 4;

const INTERVALS = CHART_INTERVALS.map((i) => [i, i.toUpperCase()] as const);

const nameOf = (m: Market): string => (typeof m['groupItemTitle'] === 'string' && m['groupItemTitle'].trim()) || m.question || m.id;

/** The markets an event's chart draws: its first `EVENT_CHART_LINES` ranked markets that are open and can be traded. */
export function chartedMarkets(ranked: readonly Market[]): Market[] {
  return ranked.filter((m) => !m.closed && tradingIds(m).ok).slice(0, EVENT_CHART_LINES);
}

/** `ranked`: the event's markets, leader first (rankMarkets). */
export function EventChart({ ranked }: { ranked: readonly Market[] }) {
  const [interval, setSpan] = useState<ChartInterval>('1d');
  const markets = chartedMarkets(ranked);
  const charts = useQueries({
    queries: markets.map((m) => ({
      queryKey: ['markets.chart', { id: m.id, interval }],
      queryFn: () => call('markets.chart', { id: m.id, interval }),
      placeholderData: keepPreviousData,
      staleTime: 60_000,
    })),
  });
  const single = markets.length === 1;
  // The answers' times name what is drawn: the canvas is rebuilt only when one of them changes.
  const key = [interval, ...markets.map((m, i) => `${m.id}@${charts[i]?.dataUpdatedAt ?? 0}`)].join(' ');
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names every input read here
  const { series, data } = useMemo(() => {
    const answers = charts.map((c) => c.data);
    const series: History[] = single
      ? (answers[0]?.outcomes ?? []).map((o) => ({ name: o.name, history: o.history }))
      : markets.flatMap((m, i) => {
          const first = answers[i]?.outcomes[0];
          return first ? [{ name: nameOf(m), history: first.history }] : [];
        });
    return { series, data: alignHistories(series) };
  }, [key]);
  if (markets.length === 0) return null;
  const loading = charts.some((c) => c.isPending);
  const error = charts.find((c) => c.error)?.error;
  return (
    <section className="panel-section price-chart" aria-label="Event chart" data-testid="event-chart">
      <div className="panel-section-head">
        <h3 className="detail-h">{single ? 'Price history' : `Leading ${markets.length === 1 ? 'market' : 'markets'} over time`}</h3>
        <span className="toolbar-spacer" />
        <Segmented label="Event chart interval" options={INTERVALS} value={interval} onChange={setSpan} />
      </div>
      {series.some((s) => s.history.length > 0) ? (
        <>
          <ChartCanvas names={series.map((s) => s.name)} data={data} />
          <CoverageNote data={data} interval={interval} />
        </>
      ) : (
        <p className="muted chart-message" data-testid="event-chart-empty">
          {loading
            ? 'Loading price history…'
            : error
              ? `No price history: ${error.message}`
              : `No price history for this ${interval.toUpperCase()} interval yet.`}
        </p>
      )}
    </section>
  );
}
