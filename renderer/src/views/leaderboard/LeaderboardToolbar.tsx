/**
 * The leaderboard's controls: category tabs, period, what ranks, how fresh the board is (its
 * age when it comes from the cache), and the export and copy actions.
 */
import { LEADERBOARD_CATEGORIES, LEADERBOARD_ORDER, LEADERBOARD_PERIODS, type LeaderboardOrder } from '../../api.ts';
import { Segmented } from '../../components/Segmented.tsx';
import { fmtAgo, fmtInt } from '../../format.ts';
import { ExportCopy } from '../orders/ExportCopy.tsx';
import type { Board, BoardTotal, Freshness } from './useLeaderboard.ts';

const PERIOD_LABEL = { DAY: 'Day', WEEK: 'Week', MONTH: 'Month', ALL: 'All time' } as const;
const ORDER_LABEL: Record<LeaderboardOrder, string> = { PNL: 'Profit & loss', VOL: 'Volume' };
export const titleCase = (s: string) => s[0] + s.slice(1).toLowerCase();

export function CategoryTabs({ board, onBoard }: { board: Board; onBoard(patch: Partial<Board>): void }) {
  return (
    <div className="subtabs" role="tablist" aria-label="Leaderboard category">
      {LEADERBOARD_CATEGORIES.map((c) => (
        <button
          key={c}
          type="button"
          role="tab"
          aria-selected={board.category === c}
          className={`subtab${board.category === c ? ' selected' : ''}`}
          onClick={() => onBoard({ category: c })}
        >
          {titleCase(c)}
        </button>
      ))}
    </div>
  );
}

/** "Cached 3 hr. ago · the upstream is unreachable", or "Updated 2 min. ago" when fresh. */
function FreshnessNote({ freshness: f }: { freshness: Freshness }) {
  if (f.cached) {
    return (
      <span className="stale-note" role="note" data-testid="leaderboard-stale">
        Cached {f.fetchedAt ? fmtAgo(f.fetchedAt) : 'earlier'} · {f.online ? 'refreshing failed' : 'the upstream is unreachable'}
      </span>
    );
  }
  return f.fetchedAt ? <span className="muted">Updated {fmtAgo(f.fetchedAt)}</span> : null;
}

/** "37 traders", or "1,050+ traders" when the board goes deeper than the Data API pages. */
export function totalText(t: BoardTotal): string {
  return `${fmtInt(t.entries)}${t.truncated ? '+' : ''} ${t.entries === 1 && !t.truncated ? 'trader' : 'traders'}`;
}

function BoardCount({ total }: { total: BoardTotal }) {
  return (
    <span
      className="orders-total"
      data-testid="leaderboard-total"
      title={total.truncated ? 'The Data API lists a board only this deep; it ranks more traders than that' : 'Every trader on this board'}
    >
      {totalText(total)}
    </span>
  );
}

interface Props {
  board: Board;
  onBoard(patch: Partial<Board>): void;
  busy: boolean;
  total: BoardTotal | undefined;
  /** Only when a board is shown. */
  freshness: Freshness | undefined;
  selectedCount: number;
  onCopy(): Promise<void>;
  onExport(): Promise<string>;
}

export function LeaderboardToolbar({ board, onBoard, busy, total, freshness, selectedCount, onCopy, onExport }: Props) {
  return (
    <div className="toolbar">
      <Segmented
        label="Period"
        options={LEADERBOARD_PERIODS.map((p) => [p, PERIOD_LABEL[p]] as const)}
        value={board.timePeriod}
        onChange={(timePeriod) => onBoard({ timePeriod })}
      />
      <Segmented
        label="Rank by"
        options={LEADERBOARD_ORDER.map((o) => [o, ORDER_LABEL[o]] as const)}
        value={board.orderBy}
        onChange={(orderBy) => onBoard({ orderBy })}
      />
      {total ? <BoardCount total={total} /> : null}
      {busy ? <span className="spinner" role="status" aria-label="Loading" /> : null}
      <span className="toolbar-spacer" />
      {freshness ? <FreshnessNote freshness={freshness} /> : null}
      <ExportCopy selectedCount={selectedCount} onCopy={onCopy} onExport={onExport} canExport={!!freshness} />
    </div>
  );
}
