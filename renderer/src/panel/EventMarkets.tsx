/**
 * An event's markets, leader first (rankMarkets; placeholders hidden): each with its chance,
 * volume, status and a star. Names wrap instead of shrinking, so a narrow panel stays readable.
 */
import type { Market } from '../api.ts';
import { marketChance } from '../../../src/contract/market-rules.ts';
import { fmtCents, fmtChance } from '../chance.ts';
import { StatusBadge } from '../components/cells.tsx';
import { fmtMoney } from '../format.ts';
import { useNav } from '../nav.tsx';
import { Star } from '../watchlist.tsx';

const nameOf = (m: Market): string => (m['groupItemTitle'] as string | undefined) || m.question || m.id;

export function EventMarkets({ markets, empty }: { markets: Market[]; empty: boolean }) {
  const nav = useNav();
  return (
    <ul className="event-markets panel-markets" aria-label="Markets of this event">
      {markets.map((m) => {
        const p = marketChance(m);
        return (
          <li key={m.id} className="pm-item">
            <button type="button" className="event-market pm-row" onClick={() => nav.open('market', m.id)}>
              <span className="em-title">{nameOf(m)}</span>
              <span className="pm-chance value" title={p === undefined ? undefined : `${fmtCents(p)} for Yes`}>
                {fmtChance(p)}
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
