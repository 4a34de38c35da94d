/**
 * Trader leaderboards: a tab per category, a period, ranked by PnL or volume, paged.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useKeyedState } from '../hooks/useKeyedState.ts';
import { Segmented } from '../components/Segmented.tsx';
import {
  api,
  ApiError,
  LEADERBOARD_CATEGORIES,
  LEADERBOARD_PERIODS,
  UnavailableOpError,
  type LeaderboardEntry,
  type LeaderboardParams,
} from '../api.ts';
import { fmtAgo, fmtInt, fmtMoney, fmtSignedMoney, shortAddress } from '../format.ts';
import { useLive } from '../live.tsx';
import { useUi } from '../ui-state.tsx';

const LIMIT = 25;
const MAX_OFFSET = 1000;
const PERIOD_LABEL = { DAY: 'Day', WEEK: 'Week', MONTH: 'Month', ALL: 'All time' } as const;
const title = (s: string) => s[0] + s.slice(1).toLowerCase();

function Avatar({ entry }: { entry: LeaderboardEntry }) {
  const [broken, setBroken] = useState(false);
  const name = entry.userName || entry.proxyWallet;
  if (!entry.profileImage || broken) {
    return (
      <span className="avatar avatar-letter" aria-hidden="true">
        {(name.replace(/^0x/, '')[0] ?? '?').toUpperCase()}
      </span>
    );
  }
  return (
    <img
      className="avatar"
      src={entry.profileImage}
      alt=""
      width={20}
      height={20}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setBroken(true)}
    />
  );
}

export function LeaderboardView() {
  const { ui, setUi } = useUi();
  const live = useLive();
  const lb = ui.leaderboard;
  // A new board starts at its first page.
  const [offset, setOffset] = useKeyedState(`${lb.category}/${lb.timePeriod}/${lb.orderBy}`, 0);
  const params: LeaderboardParams = { ...lb, limit: LIMIT, offset };
  const q = useQuery({
    queryKey: ['leaderboard.list', params],
    queryFn: () => api.leaderboard.list(params),
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 60_000,
  });
  const board = { category: lb.category, timePeriod: lb.timePeriod, orderBy: lb.orderBy };
  // How fresh the cached board is: the service serves the cache when the upstream is away.
  const meta = useQuery({
    queryKey: ['leaderboard.meta', board, q.dataUpdatedAt],
    queryFn: () => api.leaderboard.meta(board),
    enabled: q.isSuccess,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const set = (patch: Partial<typeof lb>) => setUi((s) => ({ ...s, leaderboard: { ...s.leaderboard, ...patch } }));
  const rows = q.data ?? [];
  const unavailable = q.error instanceof UnavailableOpError;
  // Offline with nothing cached, the service answers 500: say that, not its error code.
  const uncached = !live.online && q.error instanceof ApiError && q.error.status === 500;
  const state = unavailable
    ? 'unavailable'
    : q.isPending
      ? 'loading'
      : uncached
        ? 'uncached'
        : q.isError
          ? 'error'
          : rows.length === 0
            ? 'empty'
            : 'ready';

  return (
    <section
      className="view"
      aria-label="Leaderboard"
      data-state={state}
      data-params={q.isPlaceholderData ? '' : `${lb.category}/${lb.timePeriod}/${lb.orderBy}/${offset}`}
    >
      <div className="subtabs" role="tablist" aria-label="Leaderboard category">
        {LEADERBOARD_CATEGORIES.map((c) => (
          <button
            key={c}
            type="button"
            role="tab"
            aria-selected={lb.category === c}
            className={`subtab${lb.category === c ? ' selected' : ''}`}
            onClick={() => set({ category: c })}
          >
            {title(c)}
          </button>
        ))}
      </div>
      <div className="toolbar">
        <Segmented
          label="Period"
          options={LEADERBOARD_PERIODS.map((p) => [p, PERIOD_LABEL[p]] as const)}
          value={lb.timePeriod}
          onChange={(timePeriod) => set({ timePeriod })}
        />
        <Segmented
          label="Rank by"
          options={[
            ['PNL', 'Profit & loss'],
            ['VOL', 'Volume'],
          ]}
          value={lb.orderBy}
          onChange={(orderBy) => set({ orderBy })}
        />
        {q.isFetching ? <span className="spinner" role="status" aria-label="Loading" /> : null}
        <span className="toolbar-spacer" />
        {state === 'ready' && (meta.data?.stale || !live.online) ? (
          <span className="stale-note" role="note" data-testid="leaderboard-stale">
            Cached standings{meta.data?.fetchedAt ? ` from ${fmtAgo(meta.data.fetchedAt)}` : ''}:{' '}
            {live.online ? 'refreshing failed' : 'the upstream is unreachable'}
          </span>
        ) : state === 'ready' && meta.data?.fetchedAt ? (
          <span className="muted">Updated {fmtAgo(meta.data.fetchedAt)}</span>
        ) : null}
      </div>
      <div className="table-wrap">
        {state === 'unavailable' ? (
          <div className="empty">
            <p className="empty-title">Leaderboards are not available from this service</p>
            <p className="empty-hint">This version of the marketdesk service does not serve leaderboards yet.</p>
          </div>
        ) : state === 'uncached' ? (
          <div className="empty" data-testid="leaderboard-uncached">
            <p className="empty-title">No leaderboard cached yet; it loads when the service is online</p>
          </div>
        ) : state === 'error' ? (
          <div className="empty">
            <p className="empty-title">Could not load the leaderboard</p>
            <p className="empty-hint">{q.error?.message}</p>
            <button type="button" className="btn" onClick={() => void q.refetch()}>
              Retry
            </button>
          </div>
        ) : state === 'empty' ? (
          <div className="empty">
            <p className="empty-title">No traders ranked here yet</p>
          </div>
        ) : state === 'loading' ? (
          <p className="muted pad">Loading leaderboard…</p>
        ) : (
          <table className="table" aria-label={`${title(lb.category)} leaderboard`} data-busy={q.isFetching}>
            <thead>
              <tr>
                <th scope="col" className="num narrow">
                  Rank
                </th>
                <th scope="col">Trader</th>
                <th scope="col" className={`num${lb.orderBy === 'VOL' ? ' sorted' : ''}`}>
                  Volume
                </th>
                <th scope="col" className={`num${lb.orderBy === 'PNL' ? ' sorted' : ''}`}>
                  Profit &amp; loss
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.rank}-${r.proxyWallet}`} data-testid="leader-row">
                  <td className="num narrow">{fmtInt(r.rank)}</td>
                  <td>
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
                  </td>
                  <td className="num">{fmtMoney(r.vol)}</td>
                  <td className={`num ${(r.pnl ?? 0) >= 0 ? 'pos' : 'neg'}`}>{fmtSignedMoney(r.pnl)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {state === 'ready' ? (
        <div className="pager">
          <button type="button" className="btn" disabled={offset === 0} onClick={() => setOffset((o) => Math.max(0, o - LIMIT))}>
            ← Previous
          </button>
          <span className="muted">
            Ranks {fmtInt(offset + 1)}–{fmtInt(offset + rows.length)}
          </span>
          <button
            type="button"
            className="btn"
            disabled={rows.length < LIMIT || offset + LIMIT > MAX_OFFSET}
            onClick={() => setOffset((o) => o + LIMIT)}
          >
            Next →
          </button>
        </div>
      ) : null}
    </section>
  );
}
