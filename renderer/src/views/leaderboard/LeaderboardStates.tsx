/** The leaderboard's states other than the table, one small component each. */

export function LeaderboardUnavailable() {
  return (
    <div className="empty">
      <p className="empty-title">Leaderboards are not available from this service</p>
      <p className="empty-hint">This version of the marketdesk service does not serve leaderboards yet.</p>
    </div>
  );
}

/** Offline, and this board was never fetched: nothing to show, and why. */
export function LeaderboardUncached() {
  return (
    <div className="empty" data-testid="leaderboard-uncached">
      <p className="empty-title">No leaderboard cached yet; it loads when the service is online</p>
    </div>
  );
}

export function LeaderboardError({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div className="empty">
      <p className="empty-title">Could not load the leaderboard</p>
      <p className="empty-hint">{message}</p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

export function LeaderboardEmpty() {
  return (
    <div className="empty">
      <p className="empty-title">No traders ranked here yet</p>
    </div>
  );
}

export function LeaderboardLoading() {
  return <p className="muted pad">Loading leaderboard…</p>;
}
