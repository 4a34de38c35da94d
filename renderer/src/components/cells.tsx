/**
 * Small cell renderers shared by the grids and detail panels.
 */
import type { Market } from '../api.ts';
import { fmtPrice, outcomesOf, STATUS_LABEL, statusOf } from '../format.ts';

export function StatusBadge({ item }: { item: { active?: boolean; closed?: boolean; archived?: boolean } }) {
  const s = statusOf(item);
  return <span className={`badge badge-${s}`}>{STATUS_LABEL[s]}</span>;
}

/** Outcome names with their prices; the leading outcome is emphasised. Max `limit` shown. */
export function OutcomePrices({ market, limit = 2 }: { market: Market; limit?: number }) {
  const outcomes = outcomesOf(market);
  if (outcomes.length === 0) return <span className="muted">—</span>;
  const shown = outcomes.slice(0, limit);
  // Flat (name, price) pairs: few elements per row, since the grid renders many rows per frame.
  return (
    <>
      {shown.map((o, i) => [
        <span key={`n${i}`} className="oc-name">
          {o.name}
        </span>,
        <b key={`p${i}`} className={i === 0 ? 'oc-price oc-first' : 'oc-price'}>
          {fmtPrice(o.price)}
        </b>,
      ])}
      {outcomes.length > limit ? <span className="muted">+{outcomes.length - limit}</span> : null}
    </>
  );
}

/** The same in one box, for layouts that place it as a single item (lists, grids of cells). */
export function OutcomeBox({ market }: { market: Market }) {
  return (
    <span className="outcomes">
      <OutcomePrices market={market} />
    </span>
  );
}

export function outcomesTitle(m: Market): string {
  return outcomesOf(m)
    .map((o) => `${o.name} ${fmtPrice(o.price)}`)
    .join(' · ');
}
