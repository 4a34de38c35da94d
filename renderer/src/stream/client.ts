/** This window's live client id (`live.view`'s `client`, the push stream's `?client=`). */
import { DESKTOP_LIVE_CLIENT } from '../../../src/contract/live.ts';

/** The desktop window's fixed id, or a fresh one per web page (two tabs are two views). */
export const liveClient: string =
  typeof window !== 'undefined' && window.marketdesk
    ? DESKTOP_LIVE_CLIENT
    : `web-${Math.random().toString(36).slice(2, 10)}${Date.now().toString(36)}`;
