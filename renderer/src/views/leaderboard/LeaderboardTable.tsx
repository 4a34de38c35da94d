/**
 * One page of a board: rank, trader, volume and profit in whole dollars (compact "+$2M" made
 * neighbouring ranks look tied; the compact form is the tooltip), tabular numerals so the
 * columns line up, and a checkbox per row for "Copy selected rows". A row (or the trader's name,
 * a button for the keyboard) opens the trader's page.
 */
import type { LeaderboardEntry, LeaderboardOrder } from '../../api.ts';
import { fmtInt, fmtMoney, shortAddress } from '../../format.ts';
import { fmtDollars, fmtSignedCompact, fmtSignedDollars } from '../../format-trade.ts';
import { Avatar } from './Avatar.tsx';
import { VerifiedBadge } from './TraderPanel.tsx';
import './Leaderboard.css';

export const rowKey = (r: LeaderboardEntry) => `${r.rank}-${r.proxyWallet}`;

interface Props {
  label: string;
  rows: readonly LeaderboardEntry[];
  busy: boolean;
  orderBy: LeaderboardOrder;
  selected: ReadonlySet<string>;
  onSelect(keys: readonly string[], on: boolean): void;
  /** The wallet whose page is open, if any. */
  open: string | undefined;
  onOpen(r: LeaderboardEntry): void;
}

function Trader({ r, onOpen }: { r: LeaderboardEntry; onOpen(r: LeaderboardEntry): void }) {
  return (
    <span className="trader">
      <Avatar entry={r} />
      <button
        type="button"
        className="link-btn trader-name"
        data-testid="leader-name"
        data-wallet={r.proxyWallet}
        title={`Open ${r.userName || r.proxyWallet}: positions and recent activity`}
        onClick={(e) => {
          e.stopPropagation();
          onOpen(r);
        }}
      >
        {r.userName || shortAddress(r.proxyWallet)}
      </button>
      {r.verifiedBadge ? <VerifiedBadge /> : null}
      {r.xUsername ? (
        <span className="muted" title="X (Twitter) handle">
          @{r.xUsername}
        </span>
      ) : null}
    </span>
  );
}

export function LeaderboardTable({ label, rows, busy, orderBy, selected, onSelect, open, onOpen }: Props) {
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
          <tr
            key={rowKey(r)}
            data-testid="leader-row"
            data-wallet={r.proxyWallet}
            className={`leader-row clickable${open === r.proxyWallet ? ' selected' : ''}`}
            aria-selected={open === r.proxyWallet}
            onClick={() => onOpen(r)}
          >
            <td className="check">
              <input
                type="checkbox"
                aria-label={`Select rank ${r.rank}`}
                checked={selected.has(rowKey(r))}
                onClick={(e) => e.stopPropagation()}
                onChange={(e) => onSelect([rowKey(r)], e.target.checked)}
              />
            </td>
            <td className="num narrow">{fmtInt(r.rank)}</td>
            <td>
              <Trader r={r} onOpen={onOpen} />
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
