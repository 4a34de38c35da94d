/**
 * The Since view's notes: nothing changed, the feed could not be read, the upstream is offline.
 * The feed is the service's own (recorded at each sync into its cache), so offline it still
 * answers, up to the last sync; only an unreachable service leaves nothing to show.
 */
import { ServiceUnreachableError, UnavailableOpError } from '../api.ts';
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useLive } from '../live.tsx';
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

export function SinceEmpty(props: { since: number; range: SinceRange; onRange: (r: SinceRange) => void }) {
  return (
    <div className="empty" data-testid="since-empty">
      <p className="empty-title">Nothing changed since {fmtDateTime(new Date(props.since).toISOString())}</p>
      <p className="empty-hint">
        New markets, resolutions, price moves of 5 points or more, and rule or end-date edits show here as each sync finds them.
      </p>
      {props.range !== '7d' ? (
        <div className="empty-actions">
          <button type="button" className="btn" onClick={() => props.onRange('7d')}>
            Show the last 7 days
          </button>
        </div>
      ) : null}
    </div>
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
