/**
 * The price chart section: 1H / 6H / 1D / 1W / 1M / ALL over `markets.chart` (cached by
 * react-query per market and interval; the service keeps the last copy for offline use), with
 * when it was fetched. Under it, what the line really covers (its first and last point) and how
 * old its last point is, since a fetch "just now" can bring a history that ended weeks ago; and
 * when the line's last price is not the price above the chart, both, and why. Where the
 * upstream's history starts after the interval does (a young upstream series, or an old offline
 * copy), the local history (`markets.history`) fills the start, dashed and noted.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { CHART_INTERVALS, type ChartInterval } from '../../../src/contract/enums.ts';
import { call } from '../api.ts';
import { Segmented } from '../components/Segmented.tsx';
import type { Freshness } from '../../../src/contract/live.ts';
import { fmtDateTime } from '../format.ts';
import { CoverageNote } from './ChartCoverage.tsx';
import { useLive } from '../live.tsx';
import { Age } from './Age.tsx';
import { ChartCanvas } from './ChartCanvas.tsx';
import { useMarketTick } from '../stream/LiveCells.tsx';
import { addLivePoint, alignHistories, appendLive, INTERVAL_S, mergeLocalHistory, type LivePoint } from './chart-data.ts';
import './PriceChart.css';

/** The contract's intervals, labelled as Polymarket's chart does ("1D", "ALL"). */
const INTERVALS = CHART_INTERVALS.map((i) => [i, i.toUpperCase()] as const);

/** The interval's local history (the first outcome's price), and the window it was read for. */
function useLocalHistory(id: string, interval: ChartInterval) {
  return useQuery({
    queryKey: ['markets.history', { id, interval }],
    queryFn: async () => {
      const to = Math.floor(Date.now() / 1000);
      const span = INTERVAL_S[interval];
      const from = span === null ? null : to - span;
      const h = await call('markets.history', { id, from: from ?? 0, to });
      return { interval, from, to, points: h.points.map((p) => ({ t: p.t, price: p.price })) };
    },
    staleTime: 60_000,
    retry: false,
  });
}

/** The market's live prices since the page opened, one point a second at most, while they are live. */
function useLivePoints(id: string): LivePoint[] {
  const { tick, fresh } = useMarketTick(id);
  const [state, setState] = useState<{ id: string; points: LivePoint[] }>({ id, points: [] });
  const quote = fresh.kind === 'live' ? tick?.quote : undefined;
  useEffect(() => {
    if (!quote || quote.prices.every((p) => p === null)) return;
    const t = Math.floor((quote.timestamp ?? Date.now()) / 1000);
    setState((s) => ({ id, points: addLivePoint(s.id === id ? s.points : [], { t, prices: quote.prices }) }));
  }, [id, quote]);
  return state.id === id ? state.points : [];
}

/**
 * `off`: why the market cannot be traded (market-rules.ts tradingIds); the CLOB's chart is then
 * never asked for. `price`: the first outcome's price the page shows above the chart, and how
 * fresh it is, so the chart can say when its last point differs.
 */
export function PriceChart({
  id,
  off,
  price,
  priceFresh,
}: {
  id: string;
  off?: string | undefined;
  price?: number | undefined;
  priceFresh?: Freshness | undefined;
}) {
  const [interval, setSpan] = useState<ChartInterval>('1d');
  const q = useQuery({
    queryKey: ['markets.chart', { id, interval }],
    queryFn: () => call('markets.chart', { id, interval }),
    enabled: off === undefined,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const local = useLocalHistory(id, interval);
  // When the upstream comes or goes, ask again: the answer's age (and staleness) changes.
  const { online } = useLive();
  const seen = useRef(online);
  const { refetch } = q;
  useEffect(() => {
    if (seen.current === online) return;
    seen.current = online;
    void refetch();
  }, [online, refetch]);
  const chart = q.data?.id === id ? q.data : undefined;
  const points = useLivePoints(id);
  const merged = useMemo(() => {
    if (!chart) return undefined;
    // The previous interval's chart stays while the new one loads: merged with its own window only.
    const l = local.data?.interval === chart.interval ? local.data : undefined;
    const m = mergeLocalHistory(chart.outcomes, l?.points ?? [], l?.from ?? null, l?.to ?? Math.floor(Date.now() / 1000));
    const styles = m.dashed.map((dashed, i) => ({ dashed, colour: dashed ? i - chart.outcomes.length : i }));
    // The stream's prices since the page opened continue the line (the chart's own last point is up to a minute old).
    return { ...m, data: alignHistories(appendLive(m.series, chart.outcomes.length, points)), styles };
  }, [chart, local.data, points]);
  const label = INTERVALS.find(([v]) => v === interval)?.[1];
  return (
    <section className="panel-section price-chart" aria-label="Price chart" data-testid="price-chart">
      <div className="panel-section-head">
        <h3 className="detail-h">Price history</h3>
        {chart ? <Age fetchedAt={chart.fetchedAt} stale={chart.stale} testId="chart-age" verb="fetched" /> : null}
        <span className="toolbar-spacer" />
        {/* No chart to switch when the market cannot be traded. */}
        {off === undefined ? <Segmented label="Chart interval" options={INTERVALS} value={interval} onChange={setSpan} /> : null}
      </div>
      {off !== undefined ? (
        <p className="muted chart-message" data-testid="chart-off">
          {off}
        </p>
      ) : !chart || !merged ? (
        <p className="muted chart-message">{q.error ? `No price history: ${q.error.message}` : 'Loading price history…'}</p>
      ) : !merged.series.some((o) => o.history.length > 0) ? (
        <p className="muted chart-message" data-testid="chart-empty">
          No price history for this {label} interval yet.
        </p>
      ) : (
        <>
          <ChartCanvas names={merged.series.map((o) => o.name)} data={merged.data} styles={merged.styles} />
          <CoverageNote
            data={merged.data}
            interval={chart.interval}
            outcome={merged.series[0]?.name ?? 'Yes'}
            price={price}
            priceFresh={priceFresh}
          />
          {merged.localBefore !== null || merged.localOnly ? (
            <p className="muted chart-note" data-testid="chart-local-note">
              {merged.localOnly
                ? 'Dashed: local history only (the upstream has none for this interval).'
                : `Dashed: local history before ${fmtDateTime(new Date(merged.localBefore! * 1000).toISOString())}.`}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
