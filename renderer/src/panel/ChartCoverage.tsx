/**
 * The note under a drawn chart: the range its points really cover, how old its last point is
 * (a chart fetched "just now" can end weeks ago), and, when a price is shown above the chart,
 * whether the line's last price differs from it and why.
 */
import type { ChartInterval } from '../../../src/contract/enums.ts';
import type { Freshness } from '../../../src/contract/live.ts';
import { fmtCents } from '../chance.ts';
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useNow } from '../hooks/useNow.ts';
import { chartCoverage } from './chart-data.ts';

export function CoverageNote(p: {
  data: readonly (readonly (number | null)[])[];
  interval: ChartInterval;
  outcome?: string;
  price?: number | undefined;
  priceFresh?: Freshness | undefined;
}) {
  const now = useNow(30_000);
  const c = chartCoverage(p.data, p.interval, Math.floor(now / 1000), p.price);
  if (!c) return null;
  const at = (t: number) => fmtDateTime(new Date(t * 1000).toISOString());
  const ago = fmtAgo(c.to * 1000, now);
  const source = p.priceFresh?.kind === 'live' ? 'live' : p.priceFresh?.kind === 'stale' ? 'from a quiet stream' : 'as of the last sync';
  return (
    <>
      <p
        className={`muted chart-note chart-range${c.lagging ? ' lagging' : ''}`}
        data-testid="chart-range"
        data-lagging={c.lagging}
        data-from={c.from}
        data-to={c.to}
        data-last-price={c.lastPrice?.p}
      >
        <span data-testid="chart-covers">
          {at(c.from)} – {at(c.to)}
        </span>
        {' · '}
        <span data-testid="chart-last">last point {ago}</span>
        {c.lagging ? ': the history stops there' : ''}
      </p>
      {c.priceGap !== undefined && c.lastPrice ? (
        <p className="muted chart-note chart-gap" data-testid="chart-price-gap">
          {p.outcome} at the line's end: {fmtCents(c.lastPrice.p)} ({fmtAgo(c.lastPrice.t * 1000, now)}); above: {fmtCents(p.price)} (
          {source}). The line is the CLOB's price history, which lags the price now.
        </p>
      ) : null}
    </>
  );
}
