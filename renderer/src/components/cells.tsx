/**
 * Small cell renderers shared by the grids and detail panels.
 */
import type { ReactNode } from 'react';
import type { Market } from '../api.ts';
import { marketLeader, outcomesOf } from '../../../src/contract/market-rules.ts';
import { fmtCents, fmtChance } from '../chance.ts';
import { DASH, fmtChange, num, STATUS_LABEL, type StatusFields, statusOf, statusTitle } from '../format.ts';

/** Open, Ended (past its end date, awaiting resolution), Closed, Archived or Inactive; the tooltip says it in words. */
export function StatusBadge({ item }: { item: StatusFields }) {
  const s = statusOf(item);
  return (
    <span className={`badge badge-${s}`} title={statusTitle(item)} data-status={s}>
      {STATUS_LABEL[s]}
    </span>
  );
}

/**
 * Outcome names with their prices; the leading outcome is emphasised. Max `limit` shown.
 * Goes in a box with the `outcomes` class (muted names): the names are bare text, the prices
 * the only elements, since the grid lays out a screenful of these per frame while scrolling.
 * Each price sits in a fixed-width, right-aligned box (`.oc-price`), so the second outcome's
 * name and price line up from row to row.
 */
export function OutcomePrices({ market, limit = 2 }: { market: Market; limit?: number }) {
  return outcomePrices(market, limit);
}

/** OutcomePrices as a plain function, for a grid column (its result is kept per market). */
export function outcomePrices(market: Market, limit = 2): ReactNode {
  const outcomes = outcomesOf(market);
  if (outcomes.length === 0) return DASH;
  const shown = outcomes.slice(0, limit);
  return (
    <>
      {shown.map((o, i) => [
        `${o.name} `,
        // biome-ignore lint/suspicious/noArrayIndexKey: an outcome is its position (it pairs with the i-th price)
        <b key={`p${i}`} className={i === 0 ? 'oc-price oc-first' : 'oc-price'}>
          {fmtChance(o.price)}
        </b>,
      ])}
      {outcomes.length > limit ? `+${outcomes.length - limit}` : null}
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
    .map((o) => `${o.name} ${fmtChance(o.price)}`)
    .join(' · ');
}

/** A market's chance cell: Polymarket's rounding ("29%", "<1%"); the tooltip names the outcome and its price in ¢. */
export function chanceCell(m: Market): string {
  return fmtChance(marketLeader(m)?.price);
}
export function chanceTitle(m: Market): string | undefined {
  const l = marketLeader(m);
  return l ? `${l.name}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined;
}

/**
 * A 24h change in points with its sign and an arrow, coloured: the sign and arrow carry the
 * meaning without the colour. The arrow is decoration (aria-hidden, outside the text a test reads).
 */
export function changeCell(v: unknown): ReactNode {
  const n = num(v);
  if (n === undefined) return DASH;
  const text = fmtChange(n);
  const dir = text.startsWith('+') ? 'up' : text === '0.0' ? 'flat' : 'down';
  return (
    <span className={`chg chg-${dir}`}>
      <span className="chg-arrow" aria-hidden="true">
        {dir === 'up' ? '▲' : dir === 'down' ? '▼' : ''}
      </span>
      <span className="chg-value">{text}</span>
    </span>
  );
}
