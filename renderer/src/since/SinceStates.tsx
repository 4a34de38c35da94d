/**
 * The Since view's notes: nothing changed, the feed could not be read, the upstream is offline.
 * The feed is the service's own (recorded at each sync into its cache), so offline it still
 * answers, up to the last sync; only an unreachable service leaves nothing to show.
 */
import { useQuery } from '@tanstack/react-query';
import { ServiceUnreachableError, UnavailableOpError } from '../api.ts';
import { fmtChance } from '../chance.ts';
import { marketLeader } from '../../../src/contract/market-rules.ts';
import { changeCell } from '../components/cells.tsx';
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useLive } from '../live.tsx';
import { useNav } from '../nav.tsx';
import { todaysMoves } from './feed.ts';
import type { SinceRange } from './last-look.ts';

export function OfflineNote({ now }: { now: number }) {
  const live = useLive();
  if (live.online || !live.connected) return null;
  const last = live.sync?.lastSuccessAt;
  return (
    <p className="since-offline" data-testid="since-offline">
      Offline: read from the cache, which has the changes up to the last sync ({last ? fmtAgo(last, now) : 'none yet'}). New changes show
      after the next sync, once the upstream is back.
    </p>
  );
}

/**
 * Nothing recorded in the range. When the feed began watching after the range's start (a fresh cache),
 * "Nothing changed" would not be true: it says since when it watches, and what it does know, the
 * catalog's own biggest 24h moves (TodaysMoves).
 */
export function SinceEmpty(props: { since: number; watchingSince: string | null; range: SinceRange; onRange: (r: SinceRange) => void }) {
  const watching = props.watchingSince === null ? undefined : Date.parse(props.watchingSince);
  const partial = watching === undefined || watching > props.since;
  return (
    <div className="empty" data-testid="since-empty">
      {partial ? (
        <p className="empty-title" data-testid="since-watching">
          {watching === undefined ? 'No sync has been recorded yet' : `Watching since ${fmtDateTime(new Date(watching).toISOString())}`}
          {'; meanwhile, today’s biggest moves:'}
        </p>
      ) : (
        <p className="empty-title">Nothing changed since {fmtDateTime(new Date(props.since).toISOString())}</p>
      )}
      {partial ? <TodaysMoves /> : null}
      <p className="empty-hint">
        New markets, resolutions, price moves of 5 points or more, and rule or end-date edits show here as each sync finds them.
      </p>
      {props.range !== '7d' && !partial ? (
        <div className="empty-actions">
          <button type="button" className="btn" onClick={() => props.onRange('7d')}>
            Show the last 7 days
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The open markets' biggest 24h changes, by size (the service's `oneDayPriceChangeSize` order); a click opens one. */
function TodaysMoves() {
  const nav = useNav();
  const moves = useQuery({ queryKey: ['markets.list', { since: 'today-moves' }], queryFn: todaysMoves, staleTime: 60_000 });
  const rows = (moves.data ?? []).filter((m) => typeof m.oneDayPriceChange === 'number' && m.oneDayPriceChange !== 0);
  if (moves.isPending) return <p className="muted">Reading the catalog…</p>;
  if (rows.length === 0) return <p className="muted">The catalog has no 24h changes yet.</p>;
  return (
    <ol className="since-today" data-testid="since-today">
      {rows.map((m) => (
        <li key={m.id}>
          <button type="button" className="since-row" data-testid="since-today-row" data-id={m.id} onClick={() => nav.open('market', m.id)}>
            <span className="since-title" title={m.question}>
              {m.question ?? m.slug ?? m.id}
            </span>
            <span className="since-today-figures">
              {fmtChance(marketLeader(m)?.price)} {changeCell(m.oneDayPriceChange)}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

export function SinceError({ error, retry }: { error: Error; retry: () => void }) {
  const unreachable = error instanceof ServiceUnreachableError;
  const title = unreachable
    ? 'The marketdesk service is not reachable'
    : error instanceof UnavailableOpError
      ? 'This service has no change feed'
      : 'The change feed could not be read';
  const hint = unreachable
    ? 'The feed lives in the service’s cache: once the service runs again it shows here, offline too.'
    : error instanceof UnavailableOpError
      ? 'The running service is older than this app: restart it to record changes.'
      : error.message;
  return (
    <div className="empty" data-testid="since-error" role="alert">
      <p className="empty-title">{title}</p>
      <p className="empty-hint">{hint}</p>
      <div className="empty-actions">
        <button type="button" className="btn" onClick={retry}>
          Retry
        </button>
      </div>
    </div>
  );
}
