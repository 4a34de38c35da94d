/**
 * Label-value pairs (volumes, liquidity, dates). Values wrap rather than cut: a number that
 * does not fit beside its label moves to the next line, whole.
 */
import type { ReactNode } from 'react';
import { describeFees, feeScheduleOf } from '../../../src/contract/fees.ts';
import type { Event, Market } from '../api.ts';
import { fmtDate, fmtInt, fmtMoneyFull } from '../format.ts';

export function Stat({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd className="stat-value">{value}</dd>
    </div>
  );
}

export function MarketStats({ m }: { m: Market }) {
  return (
    <dl className="stats panel-stats" aria-label="Market figures">
      <Stat label="Volume" value={fmtMoneyFull(m.volumeNum ?? m.volume)} />
      <Stat label="24h volume" value={fmtMoneyFull(m.volume24hr)} />
      <Stat label="1 week volume" value={fmtMoneyFull(m['volume1wk'])} />
      <Stat label="Liquidity" value={fmtMoneyFull(m.liquidityNum ?? m.liquidity)} />
      <Stat label="Starts" value={fmtDate(m.startDate)} />
      <Stat label="Ends" value={fmtDate(m.endDate)} />
      <Stat label="Created" value={fmtDate(m.createdAt)} />
      <Stat label="Updated" value={fmtDate(m.updatedAt)} />
      {m.closedTime ? <Stat label="Closed" value={fmtDate(m.closedTime)} /> : null}
      {typeof m['version'] === 'string' ? <Stat label="Protocol" value={m['version']} /> : null}
    </dl>
  );
}

/**
 * The market's fee rule in one line, from its `feeSchedule` (src/contract/fees.ts). Said only
 * where the catalog sends fee fields: an older or white-label catalog without them is not "free".
 */
export function MarketFees({ m }: { m: Market }) {
  if (m['feeSchedule'] === undefined && m['feesEnabled'] === undefined) return null;
  return (
    <p className="detail-fees" data-testid="market-fees">
      {describeFees(feeScheduleOf({ feeSchedule: m['feeSchedule'], feesEnabled: m['feesEnabled'] }))}
    </p>
  );
}

export function EventStats({ e, markets }: { e: Event; markets: number }) {
  return (
    <dl className="stats panel-stats" aria-label="Event figures">
      <Stat label="Volume" value={fmtMoneyFull(e.volume)} />
      <Stat label="24h volume" value={fmtMoneyFull(e['volume24hr'])} />
      <Stat label="Liquidity" value={fmtMoneyFull(e.liquidity)} />
      <Stat label="Markets" value={fmtInt(markets)} />
      <Stat label="Starts" value={fmtDate(e.startDate)} />
      <Stat label="Ends" value={fmtDate(e.endDate)} />
    </dl>
  );
}
