/**
 * One page of a board: rank, trader, volume and profit in whole dollars (compact "+$2M" made
 * neighbouring ranks look tied; the compact form is the tooltip), tabular numerals so the
 * columns line up, and a checkbox per row for "Copy selected rows".
 */
import type { LeaderboardEntry, LeaderboardOrder } from '../../api.ts';
import { fmtInt, fmtMoney, shortAddress } from '../../format.ts';
import { fmtDollars, fmtSignedCompact, fmtSignedDollars } from '../../format-trade.ts';
import { Avatar } from './Avatar.tsx';
import './Leaderboard.css';

export const rowKey = (r: LeaderboardEntry) => `${r.rank}-${r.proxyWallet}`;

interface Props {
  label: string;
  rows: readonly LeaderboardEntry[];
  busy: boolean;
  orderBy: LeaderboardOrder;
  selected: ReadonlySet<string>;
  onSelect(keys: readonly string[], on: boolean): void;
}

function Trader({ r }: { r: LeaderboardEntry }) {
  return (
    <span className="trader">
      <Avatar entry={r} />
      <span className="trader-name" title={r.proxyWallet}>
        {r.userName || shortAddress(r.proxyWallet)}
      </span>
      {r.verifiedBadge ? (
        <span className="verified" title="Verified" role="img" aria-label="Verified">
          ✓
        </span>
      ) : null}
      {r.xUsername ? <span className="muted">@{r.xUsername}</span> : null}
    </span>
  );
}

export function LeaderboardTable({ label, rows, busy, orderBy, selected, onSelect }: Props) {
  const all = rows.length > 0 && rows.every((r) => selected.has(rowKey(r)));
  return (
    <table className="table leaderboard-table" aria-label={label} data-busy={busy}>
      <thead>
        <tr>
          <th scope="col" className="check">
            <input
              type="checkbox"
              aria-label="Select all traders on this page"
              checked={all}
              onChange={(e) => onSelect(rows.map(rowKey), e.target.checked)}
            />
          </th>
          <th scope="col" className="num narrow">
            Rank
          </th>
          <th scope="col">Trader</th>
          <th scope="col" className={`num${orderBy === 'VOL' ? ' sorted' : ''}`} aria-sort={orderBy === 'VOL' ? 'descending' : 'none'}>
            Volume
          </th>
          <th scope="col" className={`num${orderBy === 'PNL' ? ' sorted' : ''}`} aria-sort={orderBy === 'PNL' ? 'descending' : 'none'}>
            Profit &amp; loss
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={rowKey(r)} data-testid="leader-row">
            <td className="check">
              <input
                type="checkbox"
                aria-label={`Select rank ${r.rank}`}
                checked={selected.has(rowKey(r))}
                onChange={(e) => onSelect([rowKey(r)], e.target.checked)}
              />
            </td>
            <td className="num narrow">{fmtInt(r.rank)}</td>
            <td>
              <Trader r={r} />
            </td>
            <td className="num money" data-testid="leader-vol" title={fmtMoney(r.vol)}>
              {fmtDollars(r.vol)}
            </td>
            <td className={`num money ${(r.pnl ?? 0) >= 0 ? 'pos' : 'neg'}`} data-testid="leader-pnl" title={fmtSignedCompact(r.pnl)}>
              {fmtSignedDollars(r.pnl)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
