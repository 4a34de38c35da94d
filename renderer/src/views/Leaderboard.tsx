/**
 * Trader leaderboards: a tab per category, a period, ranked by PnL or volume, paged, with the
 * board's count. A trader opens their page (positions, recent activity) beside the board. The
 * parts are in views/leaderboard/: the data and its state (useLeaderboard), the controls, the
 * table, the trader's page and the other states.
 */
import { useState } from 'react';
import type { LeaderboardEntry } from '../api.ts';
import { Pager } from '../components/Pager.tsx';
import { toTsv } from '../format-trade.ts';
import { useKeyedState } from '../hooks/useKeyedState.ts';
import { useUi } from '../ui-state.tsx';
import { LeaderboardTable, rowKey } from './leaderboard/LeaderboardTable.tsx';
import {
  LeaderboardEmpty,
  LeaderboardError,
  LeaderboardLoading,
  LeaderboardUnavailable,
  LeaderboardUncached,
} from './leaderboard/LeaderboardStates.tsx';
import { CategoryTabs, LeaderboardToolbar, titleCase } from './leaderboard/LeaderboardToolbar.tsx';
import { TraderPanel, VERIFIED_MEANING } from './leaderboard/TraderPanel.tsx';
import { type Board, type LeaderboardState, useLeaderboard } from './leaderboard/useLeaderboard.ts';
import { copyText, downloadExport } from './orders/exporting.ts';

const PAGE_SIZES = [25, 50] as const;
/** The upstream's deepest offset (leaderboard.list's bound). */
const MAX_OFFSET = 1000;

const copyRows = (rows: readonly LeaderboardEntry[]) =>
  toTsv([['Rank', 'Trader', 'Wallet', 'Volume', 'Profit & loss'], ...rows.map((r) => [r.rank, r.userName, r.proxyWallet, r.vol, r.pnl])]);

export function LeaderboardView() {
  const { ui, setUi } = useUi();
  const board: Board = ui.leaderboard;
  const boardKey = `${board.category}/${board.timePeriod}/${board.orderBy}`;
  const [limit, setLimit] = useState<number>(PAGE_SIZES[0]);
  // A new board or page size starts at its first page; a new page with nothing selected.
  const [offset, setOffset] = useKeyedState(`${boardKey}/${limit}`, 0);
  const [selected, setSelected] = useKeyedState<ReadonlySet<string>>(`${boardKey}/${limit}/${offset}`, new Set());
  const { state, freshness, total } = useLeaderboard(board, offset, limit);
  // The trader's page says their rank on this board: another board closes it.
  const [trader, setTrader] = useKeyedState<LeaderboardEntry | null>(boardKey, null);
  const rows = state.kind === 'ready' ? state.rows : [];
  // Closing the page puts the keyboard back on the trader it was opened from.
  const closeTrader = () => {
    const wallet = trader?.proxyWallet;
    setTrader(null);
    if (wallet)
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>(`[data-testid="leader-row"][data-wallet="${CSS.escape(wallet)}"] [data-testid="leader-name"]`)
          ?.focus(),
      );
  };
  const chosen = rows.filter((r) => selected.has(rowKey(r)));
  const onBoard = (patch: Partial<Board>) => setUi((s) => ({ ...s, leaderboard: { ...s.leaderboard, ...patch } }));
  const select = (keys: readonly string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const k of keys) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return next;
    });

  return (
    <>
      <section
        className="view"
        aria-label="Leaderboard"
        data-state={state.kind}
        data-params={state.kind === 'ready' && !state.placeholder ? `${boardKey}/${offset}` : ''}
      >
        <CategoryTabs board={board} onBoard={onBoard} />
        <LeaderboardToolbar
          board={board}
          onBoard={onBoard}
          busy={state.kind === 'ready' && state.busy}
          total={total}
          freshness={state.kind === 'ready' ? freshness : undefined}
          selectedCount={chosen.length}
          onCopy={() => copyText(copyRows(chosen))}
          onExport={() => downloadExport('catalog.export', { list: 'leaderboard', ...board }, 'marketdesk-leaderboard.csv')}
        />
        <div className="table-wrap">
          <Body
            state={state}
            label={`${titleCase(board.category)} leaderboard`}
            board={board}
            selected={selected}
            onSelect={select}
            open={trader?.proxyWallet}
            onOpen={setTrader}
          />
        </div>
        {state.kind === 'ready' && rows.some((r) => r.verifiedBadge) ? (
          <p className="leaderboard-legend muted" data-testid="leaderboard-legend">
            <span className="verified" aria-hidden="true">
              ✓
            </span>{' '}
            {VERIFIED_MEANING}. Click a trader for their positions and recent activity.
          </p>
        ) : null}
        {state.kind === 'ready' ? (
          <Pager
            offset={offset}
            limit={limit}
            count={rows.length}
            maxOffset={MAX_OFFSET}
            onOffset={setOffset}
            sizes={PAGE_SIZES}
            onLimit={setLimit}
            noun="traders"
            total={total && !total.truncated ? total.entries : undefined}
          />
        ) : null}
      </section>
      {trader ? <TraderPanel entry={trader} onClose={closeTrader} /> : null}
    </>
  );
}

interface BodyProps {
  state: LeaderboardState;
  label: string;
  board: Board;
  selected: ReadonlySet<string>;
  onSelect(keys: readonly string[], on: boolean): void;
  open: string | undefined;
  onOpen(r: LeaderboardEntry): void;
}

function Body({ state, label, board, selected, onSelect, open, onOpen }: BodyProps) {
  switch (state.kind) {
    case 'unavailable':
      return <LeaderboardUnavailable />;
    case 'loading':
      return <LeaderboardLoading />;
    case 'uncached':
      return <LeaderboardUncached />;
    case 'error':
      return <LeaderboardError message={state.message} retry={state.retry} />;
    case 'empty':
      return <LeaderboardEmpty />;
    case 'ready':
      return (
        <LeaderboardTable
          label={label}
          rows={state.rows}
          busy={state.busy}
          orderBy={board.orderBy}
          selected={selected}
          onSelect={onSelect}
          open={open}
          onOpen={onOpen}
        />
      );
  }
}
