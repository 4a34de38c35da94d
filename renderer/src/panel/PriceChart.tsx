/**
 * The price chart section: 1D / 1W / 1M / ALL over `markets.chart` (cached by react-query per
 * market and interval; the service keeps the last copy for offline use), with its age.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChartInterval } from '../../../src/contract/desk-ops.ts';
import { call } from '../api.ts';
import { Segmented } from '../components/Segmented.tsx';
import { useLive } from '../live.tsx';
import { Age } from './Age.tsx';
import { ChartCanvas } from './ChartCanvas.tsx';
import { alignHistories, hasHistory } from './chart-data.ts';

const INTERVALS = [
  ['1d', '1D'],
  ['1w', '1W'],
  ['1m', '1M'],
  ['all', 'ALL'],
] as const satisfies readonly (readonly [ChartInterval, string])[];

export function PriceChart({ id }: { id: string }) {
  const [interval, setSpan] = useState<ChartInterval>('1d');
  const q = useQuery({
    queryKey: ['markets.chart', { id, interval }],
    queryFn: () => call('markets.chart', { id, interval }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
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
  const data = useMemo(() => (chart ? alignHistories(chart.outcomes) : undefined), [chart]);
  return (
    <section className="panel-section price-chart" aria-label="Price chart" data-testid="price-chart">
      <div className="panel-section-head">
        <h3 className="detail-h">Price history</h3>
        {chart ? <Age fetchedAt={chart.fetchedAt} stale={chart.stale} testId="chart-age" /> : null}
        <span className="toolbar-spacer" />
        <Segmented label="Chart interval" options={INTERVALS} value={interval} onChange={setSpan} />
      </div>
      {!chart ? (
        <p className="muted chart-message">{q.error ? `No price history: ${q.error.message}` : 'Loading price history…'}</p>
      ) : !hasHistory(chart.outcomes) || !data ? (
        <p className="muted chart-message" data-testid="chart-empty">
          No price history for this {INTERVALS.find(([v]) => v === interval)?.[1]} interval yet.
        </p>
      ) : (
        <ChartCanvas names={chart.outcomes.map((o) => o.name)} data={data} />
      )}
    </section>
  );
}
