/**
 * A trader's page, beside (or over) the leaderboard: who they are on this board, then their open
 * positions and recent activity from the Data API. Both come through the service's Data API
 * pass-through (`dataPositions.list`, `dataActivity.list`: the scheduler's budget, a short cache,
 * and offline the last answer it kept), so this page reads the same in the desktop app and the web UI.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ApiError, call, type LeaderboardEntry } from '../../api.ts';
import { fmtCents } from '../../chance.ts';
import { DASH, fmtAgo, fmtDateTime, fmtDecimal, fmtInt, fmtMoneyFull, shortAddress } from '../../format.ts';
import { fmtDollars, fmtSignedDollars } from '../../format-trade.ts';
import { useLive } from '../../live.tsx';
import { ExternalLink } from '../../panel/Links.tsx';
import '../../panel/panel.css';
import { Avatar } from './Avatar.tsx';
import './TraderPanel.css';

/** How many positions and activities the page asks for (one upstream page each). */
export const TRADER_POSITIONS = 50;
export const TRADER_ACTIVITY = 25;

type Row = Record<string, unknown>;
const numOf = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Each row with a key of its own: its id, and how many rows before it had the same one. */
function keyed(rows: readonly Row[], id: (r: Row) => string): [string, Row][] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const k = id(r);
    const n = seen.get(k) ?? 0;
    seen.set(k, n + 1);
    return [`${k}#${n}`, r];
  });
}

/** Open positions, largest current value first (the Data API does not promise an order). */
export function positionsByValue(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => (numOf(b['current_value']) ?? 0) - (numOf(a['current_value']) ?? 0));
}

/** What went wrong, in a trader's words: offline with nothing kept, or the upstream's answer. */
function why(error: Error, online: boolean): string {
  if (!online) return 'Offline, and the service has not kept a copy of this from earlier.';
  if (error instanceof ApiError) return `The Data API did not answer: ${error.message}`;
  return error.message;
}

function Positions({ wallet }: { wallet: string }) {
  const live = useLive();
  const q = useQuery({
    queryKey: ['dataPositions.list', wallet],
    queryFn: () => call('dataPositions.list', { user: wallet, limit: String(TRADER_POSITIONS) }),
    retry: false,
    staleTime: 30_000,
  });
  const rows = q.data ? positionsByValue(q.data.data) : [];
  return (
    <section className="panel-section" aria-label="Open positions" data-testid="trader-positions">
      <div className="panel-section-head">
        <h3 className="detail-h">Open positions</h3>
        {q.data ? (
          <span className="panel-age" data-testid="trader-positions-count">
            {q.data.pagination.has_more ? `largest ${fmtInt(rows.length)} shown` : `${fmtInt(rows.length)}`}
          </span>
        ) : null}
      </div>
      {q.isPending ? (
        <p className="muted">Loading…</p>
      ) : q.error ? (
        <p className="muted" role="note">
          {why(q.error, live.online)}
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">No open positions.</p>
      ) : (
        <table className="table trader-table" aria-label="Open positions">
          <thead>
            <tr>
              <th scope="col">Market · outcome</th>
              <th scope="col" className="num" title="Average price paid → the outcome's current price">
                Avg → now
              </th>
              <th scope="col" className="num" title="Shares × current price">
                Value
              </th>
              <th scope="col" className="num" title="Profit and loss: value − cost, plus what was realised">
                P&amp;L
              </th>
            </tr>
          </thead>
          <tbody>
            {keyed(rows, (p) => textOf(p['token_id'])).map(([key, p]) => {
              const pnl = numOf(p['total_pnl']) ?? numOf(p['unrealized_pnl']);
              return (
                <tr key={key} data-testid="trader-position">
                  <td className="trader-market">
                    <span className="trader-title" data-testid="trader-position-title">
                      {textOf(p['title']) || DASH}
                    </span>{' '}
                    <span className="trader-sub">
                      {textOf(p['outcome'])} · {fmtDecimal(p['current_size'] ?? p['size'])} shares
                    </span>
                  </td>
                  <td className="num trader-prices">
                    {fmtCents(numOf(p['avg_price']))} → {fmtCents(numOf(p['current_price']))}
                  </td>
                  <td className="num" data-testid="trader-position-value">
                    {fmtMoneyFull(p['current_value'])}
                  </td>
                  <td className={`num ${(pnl ?? 0) >= 0 ? 'pos' : 'neg'}`}>{pnl === undefined ? DASH : fmtSignedDollars(pnl)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Activity({ wallet }: { wallet: string }) {
  const live = useLive();
  const q = useQuery({
    queryKey: ['dataActivity.list', wallet],
    queryFn: () => call('dataActivity.list', { user: wallet, limit: String(TRADER_ACTIVITY) }),
    retry: false,
    staleTime: 30_000,
  });
  const rows = q.data?.data ?? [];
  return (
    <section className="panel-section" aria-label="Recent activity" data-testid="trader-activity">
      <div className="panel-section-head">
        <h3 className="detail-h">Recent activity</h3>
        {q.data ? <span className="panel-age">newest first</span> : null}
      </div>
      {q.isPending ? (
        <p className="muted">Loading…</p>
      ) : q.error ? (
        <p className="muted" role="note">
          {why(q.error, live.online)}
        </p>
      ) : rows.length === 0 ? (
        <p className="muted">No recent activity.</p>
      ) : (
        <ul className="trader-activity">
          {keyed(rows, (a) => `${textOf(a['transaction_hash'])}/${textOf(a['token_id'])}/${textOf(a['type'])}`).map(([key, a]) => {
            const ts = numOf(a['timestamp']);
            const side = textOf(a['side']);
            const type = textOf(a['type']) || 'ACTIVITY';
            return (
              <li key={key} data-testid="trader-activity-row">
                <span className="muted" title={ts === undefined ? undefined : fmtDateTime(new Date(ts * 1000).toISOString())}>
                  {ts === undefined ? DASH : fmtAgo(ts * 1000)}
                </span>{' '}
                <span className="trader-what" data-testid="trader-activity-what">
                  {type === 'TRADE' && side ? (side === 'BUY' ? 'Bought' : 'Sold') : type.toLowerCase()}{' '}
                  {numOf(a['size']) !== undefined ? `${fmtDecimal(a['size'])} ${textOf(a['outcome'])}` : textOf(a['outcome'])}
                  {numOf(a['price']) !== undefined ? ` at ${fmtCents(numOf(a['price']))}` : ''}
                </span>
                <span className="trader-title">{textOf(a['title'])}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export function TraderPanel({ entry, onClose }: { entry: LeaderboardEntry; onClose(): void }) {
  const { status } = useLive();
  const closeRef = useRef<HTMLButtonElement>(null);
  const name = entry.userName || shortAddress(entry.proxyWallet);
  // The page takes focus when it opens, so the keyboard is where the eyes are.
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus moves when another trader opens.
  useEffect(() => {
    closeRef.current?.focus();
  }, [entry.proxyWallet]);
  return (
    <aside
      className="detail panel-shell trader-panel"
      aria-label={`Trader ${name}`}
      data-testid="trader-panel"
      data-wallet={entry.proxyWallet}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onClose();
        }
      }}
    >
      <div className="detail-head">
        <span className="detail-kind">Trader</span>
        <span className="toolbar-spacer" />
        <button ref={closeRef} type="button" className="icon-btn" aria-label="Close trader (Esc)" title="Close (Esc)" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="detail-body">
        <div className="panel-title-row">
          <Avatar entry={entry} />
          <h2 className="detail-title" data-testid="trader-name">
            {name}
            {entry.verifiedBadge ? <VerifiedBadge /> : null}
          </h2>
        </div>
        <p className="muted mono" data-testid="trader-wallet">
          {entry.proxyWallet}
        </p>
        <p className="trader-board">
          Rank {fmtInt(entry.rank)} on this board · volume {fmtDollars(entry.vol)} · profit and loss{' '}
          <span className={(entry.pnl ?? 0) >= 0 ? 'pos' : 'neg'}>{fmtSignedDollars(entry.pnl)}</span>
          {entry.xUsername ? <> · X (Twitter) @{entry.xUsername}</> : null}
        </p>
        {status?.profile === 'polymarket' ? (
          <p className="detail-links">
            <ExternalLink href={`https://polymarket.com/profile/${encodeURIComponent(entry.proxyWallet)}`}>
              Open on polymarket.com ↗
            </ExternalLink>
          </p>
        ) : null}
        <Positions wallet={entry.proxyWallet} />
        <Activity wallet={entry.proxyWallet} />
      </div>
    </aside>
  );
}

/** What the badge means, said where it is shown. */
export const VERIFIED_MEANING = 'Verified by Polymarket: the blue check polymarket.com shows on accounts it has verified';

export function VerifiedBadge() {
  return (
    <span className="verified" title={VERIFIED_MEANING} role="img" aria-label="Verified by Polymarket">
      ✓
    </span>
  );
}
