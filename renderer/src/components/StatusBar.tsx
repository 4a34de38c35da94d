/**
 * The status bar: sync phase and progress, last successful sync, the history walk, online/offline, counts.
 * The offline banner sits above the views while the upstream (or the service) is unreachable.
 */
import { useQuery } from '@tanstack/react-query';
import { api, apiBase, mode, type LimitsStatus } from '../api.ts';
import { noCatalog } from '../catalog-state.ts';
import { fmtAgo, fmtInt } from '../format.ts';
import { useLive } from '../live.tsx';
import { StorageStatusItem } from './StorageNotice.tsx';
import { HistoryStatusItem } from './HistoryStatus.tsx';
import { useNow } from '../hooks/useNow.ts';
import { StreamHealth } from '../stream/StreamHealth.tsx';
import { plural } from '../plural.ts';

export function StatusBar() {
  const live = useLive();
  const now = useNow(30_000);
  const { sync, status } = live;
  const phase = !live.connected
    ? 'disconnected'
    : sync?.running
      ? sync.phase
      : status?.offline && !sync?.running && sync?.phase === 'offline'
        ? 'cache-only'
        : 'idle';
  const progress = sync?.running ? `${plural(sync.progress.markets, 'market')} · ${plural(sync.progress.events, 'event')}` : '';
  return (
    <footer
      className="statusbar"
      role="status"
      data-sync-phase={sync?.running ? sync.phase : 'idle'}
      data-last-sync={sync?.lastSuccessAt ?? ''}
      data-online={live.online}
    >
      <span
        className={`sb-item sb-sync${sync?.running ? ' running' : ''}`}
        title={sync?.lastError ? `Last error: ${sync.lastError}` : undefined}
      >
        {sync?.running ? <span className="spinner small" aria-hidden="true" /> : null}
        {phase === 'disconnected'
          ? 'Service unreachable'
          : sync?.running
            ? `${sync.phase === 'full' ? 'Full sync' : 'Syncing changes'}: ${progress}`
            : phase === 'cache-only'
              ? 'Serving the cache (offline mode)'
              : `Synced ${fmtAgo(sync?.lastSuccessAt, now)}`}
      </span>
      {sync?.lastError && !sync.running ? (
        <span className="sb-item sb-warn" title={sync.lastError}>
          Last sync failed
        </span>
      ) : null}
      <StorageStatusItem storage={live.storage} />
      <HistoryStatusItem history={sync?.history ?? status?.sync.history} />
      {status ? (
        <span className="sb-item muted">
          {plural(status.counts.markets, 'market')} · {plural(status.counts.events, 'event')} cached
        </span>
      ) : null}
      <span className="toolbar-spacer" />
      <StreamHealth />
      <RateBudget />
      {live.service && live.service.restarts > 0 ? <span className="sb-item muted">Service restarted {live.service.restarts}×</span> : null}
      <span className="sb-item sb-where muted">{mode === 'desktop' ? 'Desktop' : `Web · ${apiBase().host}`}</span>
      <span className={`sb-item sb-online ${live.online && live.connected ? 'on' : 'off'}`} data-testid="online-indicator">
        <span className="dot" aria-hidden="true" />
        {live.connected ? (live.online ? 'Online' : 'Offline') : 'No service'}
      </span>
    </footer>
  );
}

export function OfflineBanner() {
  const live = useLive();
  const now = useNow(30_000);
  if (!live.connected) {
    const restarting = live.service?.state === 'restarting' || live.service?.state === 'starting';
    return (
      <div className="banner banner-error" role="alert" data-testid="service-banner">
        {restarting ? 'The local service is restarting…' : 'Cannot reach the marketdesk service. Reconnecting…'}
      </div>
    );
  }
  if (live.online) return null;
  if (noCatalog(live)) {
    // Nothing cached: "browsing keeps working" would be untrue.
    return (
      <div className="banner" role="alert" data-testid="offline-banner">
        <strong>Offline, and no catalog cached yet.</strong> Connect once to download it; until then there is nothing to browse.
      </div>
    );
  }
  if (live.status?.sync.phase === 'offline' && live.status.offline) {
    // Started with --offline: a choice, not a failure.
    return (
      <div className="banner" role="status" data-testid="offline-banner">
        <strong>Offline mode.</strong> The service serves its local cache and does not contact the upstream.
      </div>
    );
  }
  return (
    <div className="banner" role="alert" data-testid="offline-banner">
      <strong>Offline.</strong> The upstream API cannot be reached; showing the local cache
      {live.sync?.lastSuccessAt ? ` (last synced ${fmtAgo(live.sync.lastSuccessAt, now)})` : ''}. Browsing, sorting and search keep working.
    </div>
  );
}

/** The outbound rate-limit budget: the tightest window of any upstream host, and any queue. */
function RateBudget() {
  const limits = useQuery({
    queryKey: ['limits.status', {}],
    queryFn: api.limits.status,
    refetchInterval: 5000,
    retry: false,
    staleTime: 0,
  });
  const summary = budgetSummary(limits.data);
  if (!summary) return null;
  return (
    <span
      className={`sb-item${summary.percent < 20 ? ' sb-warn' : ' muted'}`}
      title={`${BUDGET_HINT}\n${summary.detail}`}
      data-testid="rate-budget"
    >
      {budgetText(summary)}
    </span>
  );
}

const BUDGET_HINT = 'How many more requests the upstream (Polymarket) allows now, before marketdesk waits for its limits to reset.';

/** The budget in a trader's words: "Upstream requests: 99% left", "… 3 waiting". */
export function budgetText(s: { percent: number; queued: number }): string {
  return `Upstream requests: ${s.percent}% left${s.queued > 0 ? ` · ${fmtInt(s.queued)} waiting` : ''}`;
}

export function budgetSummary(l: LimitsStatus | undefined): { percent: number; queued: number; detail: string } | undefined {
  const hosts = l?.outbound?.hosts.filter((h) => h.windows.length > 0);
  if (!hosts?.length) return undefined;
  let percent = 100;
  let queued = 0;
  const lines: string[] = [];
  for (const h of hosts) {
    queued += h.queued.user + h.queued.background;
    for (const w of h.windows) {
      const p = w.budget > 0 ? Math.round((100 * w.remaining) / w.budget) : 100;
      percent = Math.min(percent, p);
      lines.push(`${h.host} ${w.name}: ${fmtInt(w.remaining)} of ${fmtInt(w.budget)} left, resets in ${Math.ceil(w.resetS)} s`);
    }
  }
  return { percent: Math.max(0, percent), queued, detail: lines.join('\n') };
}
