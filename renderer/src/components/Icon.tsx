/**
 * A market's or event's icon, served by the service's icon cache (`icons.get`): works offline
 * and under the CSP (`img-src 'self'` on the web, the `marketdesk-icon:` scheme on the desktop).
 */
import { useEffect, useState } from 'react';
import type { IconKind } from '../../../src/contract/enums.ts';
import { ICON_SCHEME } from '../../../src/contract/icon-scheme.ts';
import { ROUTES, apiBase, mode, routeUrl } from '../api.ts';
import './Icon.css';

/**
 * The icon's URL: on the desktop the privileged scheme main/ registers (main/icon-protocol.ts:
 * no HTTP face needed); on the web the route under the page's API base (one level above /app/).
 */
export function iconUrl(kind: IconKind, id: string): string {
  if (mode === 'desktop') return `${ICON_SCHEME}://${kind}/${encodeURIComponent(id)}`;
  return new URL(routeUrl(ROUTES['icons.get'], { kind, id }), apiBase()).href;
}

/** Icons this page has shown: the browser has them, so they show again at once. */
const shown = new Set<string>();

/**
 * While a grid's new rows load (a sort or filter change), icons due meanwhile wait: each is a
 * request on the browser's six connections to the service and a turn of its one thread, ahead
 * of the rows' own. Those still on screen when the rows are in ask for their pictures then.
 */
let holds = 0;
const waiting = new Set<() => void>();

/** Holds icons back until the returned release is called (once). */
export function holdIcons(): () => void {
  holds++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--holds > 0) return;
    const due = [...waiting];
    waiting.clear();
    for (const go of due) go();
  };
}

/**
 * `settleMs` (the grids): the picture is asked for only once its row has stayed on screen that
 * long. A fast scroll passes thousands of rows for a frame or two each; requesting and decoding
 * their pictures took more main-thread time than the whole grid's script and queued the grid's
 * own data requests behind them (bench/ui.ts). The box keeps its size meanwhile.
 */
export function Icon({ kind, id, size = 20, settleMs = 0 }: { kind: IconKind; id: string; size?: number; settleMs?: number }) {
  const src = iconUrl(kind, id);
  // The service always answers a picture; only an unreachable service fails: keep the space, hide the broken image.
  const [failed, setFailed] = useState<string | null>(null);
  const [settled, setSettled] = useState<string | null>(null);
  const ready = settleMs === 0 || settled === src || shown.has(src);
  useEffect(() => {
    if (ready) return;
    const go = () => setSettled(src);
    const t = setTimeout(() => (holds > 0 ? waiting.add(go) : go()), settleMs);
    return () => {
      clearTimeout(t);
      waiting.delete(go);
    };
  }, [ready, src, settleMs]);
  return (
    <img
      // A new element per icon: a recycled grid row must not show the previous row's picture while this one loads.
      key={src}
      className="md-icon"
      src={ready ? src : undefined}
      width={size}
      height={size}
      alt=""
      loading="lazy"
      decoding="async"
      // The grid's icons yield to its data requests when the browser's connections are all busy.
      fetchPriority={settleMs > 0 ? 'low' : 'auto'}
      draggable={false}
      data-failed={failed === src ? 'true' : undefined}
      onLoad={() => shown.add(src)}
      onError={() => setFailed(src)}
    />
  );
}
