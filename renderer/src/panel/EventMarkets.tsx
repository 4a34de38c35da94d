/**
 * An event's markets, leader first (rankMarkets; placeholders hidden): each with its chance (the
 * one rule: marketLeader, as the markets grid reads it), its 24h move, its outcomes' prices in ¢
 * (as Polymarket's Yes/No buttons show them), volume, status and a star. Names wrap instead of
 * shrinking, so a narrow panel stays readable; the prices sit under the name for the same reason.
 */
import type { Market } from '../api.ts';
import { marketLeader, outcomesOf } from '../../../src/contract/market-rules.ts';
import { fmtCents, fmtChance } from '../chance.ts';
import { changeCell, StatusBadge } from '../components/cells.tsx';
import { fmtChange, fmtMoney, num } from '../format.ts';
import { useNav } from '../nav.tsx';
import { Star } from '../watchlist.tsx';

const nameOf = (m: Market): string => (m['groupItemTitle'] as string | undefined) || m.question || m.id;

export function EventMarkets({ markets, empty }: { markets: Market[]; empty: boolean }) {
  const nav = useNav();
  return (
    <ul className="event-markets panel-markets" aria-label="Markets of this event">
      {markets.map((m) => {
        const l = marketLeader(m);
        const change = num(m['oneDayPriceChange']);
        const prices = outcomesOf(m).filter((o) => o.price !== undefined);
        return (
          <li key={m.id} className="pm-item">
            <button type="button" className="event-market pm-row" onClick={() => nav.open('market', m.id)}>
              <span className="em-name">
                <span className="em-title">{nameOf(m)}</span>
                {prices.length > 0 ? (
                  <span className="em-prices" data-testid="em-prices">
                    {prices.map((o) => (
                      <span key={o.name} className="em-price">
                        {o.name} <b className="value">{fmtCents(o.price)}</b>
                      </span>
                    ))}
                  </span>
                ) : null}
              </span>
              <span className="pm-chance value" title={l ? `${l.name}: ${fmtChance(l.price)} chance, ${fmtCents(l.price)}` : undefined}>
                {fmtChance(l?.price)}
              </span>
              <span
                className="em-change num value"
                data-testid="em-change"
                title={change === undefined ? undefined : `${fmtChange(change)} points of chance in 24 hours`}
              >
                {changeCell(change)}
              </span>
              <span className="em-vol num value">{fmtMoney(m.volumeNum ?? m.volume)}</span>
              <StatusBadge item={m} />
            </button>
            <span className="pm-star">
              <Star kind="market" id={m.id} label={nameOf(m)} />
            </span>
          </li>
        );
      })}
      {empty ? <li className="muted">No markets cached for this event</li> : null}
    </ul>
  );
}
