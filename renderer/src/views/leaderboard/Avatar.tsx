/**
 * A trader's initial. Profile pictures are arbitrary links on any host, outside the catalog and
 * its icon cache; the page's CSP (`img-src 'self'`) keeps the UI from loading them, so the app
 * never calls out to hosts it does not know and shows the same thing offline.
 */
import type { LeaderboardEntry } from '../../api.ts';

export function Avatar({ entry }: { entry: LeaderboardEntry }) {
  const name = entry.userName || entry.proxyWallet;
  return (
    <span className="avatar avatar-letter" aria-hidden="true">
      {(name.replace(/^0x/, '')[0] ?? '?').toUpperCase()}
    </span>
  );
}
