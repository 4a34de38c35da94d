/**
 * Where a link in the window may take the user. The window never navigates away from the
 * app; a link goes to the system browser only after a user gesture, at once for https pages
 * of the venue's own sites, after asking for any other http(s) page, and never otherwise
 * (Electron's security checklist: limit navigation and `openExternal`). No Electron import.
 */

/** The venue's own sites per profile (their subdomains too). */
export const VENUE_SITES: Readonly<Record<string, readonly string[]>> = {
  polymarket: ['polymarket.com'],
  kuest: ['kuest.com'],
};

export type LinkAction = 'open' | 'ask' | 'refuse';

export interface LinkDecision {
  action: LinkAction;
  /** The URL to open (normalized); absent when refused. */
  href?: string;
}

export function isVenueHost(hostname: string, sites: readonly string[]): boolean {
  const h = hostname.toLowerCase();
  return sites.some((site) => h === site || h.endsWith(`.${site}`));
}

export function decideLink(url: string, opts: { gesture: boolean; sites: readonly string[] }): LinkDecision {
  // Script-started navigation (no click or key just before) never leaves the app.
  if (!opts.gesture) return { action: 'refuse' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { action: 'refuse' };
  }
  if ((parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || parsed.username || parsed.password) return { action: 'refuse' };
  if (parsed.protocol === 'https:' && isVenueHost(parsed.hostname, opts.sites)) return { action: 'open', href: parsed.href };
  return { action: 'ask', href: parsed.href };
}

/** How long after a click or key press a link counts as the user's (ms). */
export const GESTURE_MS = 1000;

/** Input events that make the next link the user's (HTML's activation-triggering events). */
const ACTIVATING = new Set(['mouseDown', 'mouseUp', 'keyDown', 'rawKeyDown', 'gestureTap', 'touchEnd', 'pointerUp']);

/**
 * The last user gesture of one WebContents, seen by main from the input events it routes to
 * the page (a page cannot fake those). One gesture opens at most one link.
 */
export class GestureTracker {
  private at = Number.NEGATIVE_INFINITY;

  constructor(private readonly now: () => number = () => performance.now()) {}

  note(type: string): void {
    if (ACTIVATING.has(type)) this.at = this.now();
  }

  consume(): boolean {
    const fresh = this.now() - this.at <= GESTURE_MS;
    this.at = Number.NEGATIVE_INFINITY;
    return fresh;
  }
}
