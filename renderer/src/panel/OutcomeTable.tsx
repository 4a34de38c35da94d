/**
 * A market's outcomes with their chance (% and ¢, as Polymarket's buy buttons show it) and the
 * 24h move. Gamma's `oneDayPriceChange` is the first outcome's; in a two-outcome market the
 * other moves by the opposite amount, otherwise its move is not known.
 */
import type { Market } from '../api.ts';
import { fmtCents, fmtChance } from '../chance.ts';
import { changeCell } from '../components/cells.tsx';
import { outcomesOf } from '../../../src/contract/market-rules.ts';
import { DASH, num } from '../format.ts';
import type { Freshness } from '../../../src/contract/live.ts';
import { FreshnessLabel } from '../stream/LiveCells.tsx';

/** `fresh`: how current the prices are (live from the stream, stale, or as of the last sync). */
export function OutcomeTable({ m, fresh }: { m: Market; fresh?: Freshness }) {
  const outcomes = outcomesOf(m);
  const change = num(m['oneDayPriceChange']);
  const changeOf = (i: number): number | undefined =>
    change === undefined ? undefined : i === 0 ? change : i === 1 && outcomes.length === 2 ? -change : undefined;
  return (
    <>
      {fresh ? (
        <p className="outcome-fresh">
          <FreshnessLabel fresh={fresh} testId="market-freshness" />
        </p>
      ) : null}
      <table className="panel-table outcome-table" aria-label="Outcomes">
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col" className="num">
              Chance
            </th>
            <th scope="col" className="num">
              Price
            </th>
            <th scope="col" className="num">
              24h
            </th>
          </tr>
        </thead>
        <tbody>
          {outcomes.length === 0 ? (
            <tr>
              <td colSpan={4} className="muted">
                No outcomes listed
              </td>
            </tr>
          ) : (
            outcomes.map((o, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: an outcome is its position (it pairs with the i-th price and token)
              <tr key={i}>
                <td className="oc-name">{o.name}</td>
                <td className="num strong value">{fmtChance(o.price)}</td>
                <td className="num value">{fmtCents(o.price)}</td>
                <td className="num value">{changeOf(i) === undefined ? DASH : changeCell(changeOf(i))}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </>
  );
}
