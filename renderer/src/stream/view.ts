/**
 * The window's live view: which markets it shows (every mounted live cell holds its market) and
 * which market page is open. Changes are gathered for VIEW_DELAY_MS and sent as one `live.view`
 * call; the service then streams exactly those to this window's push stream. Sent again when the
 * stream reconnects (a restarted service starts with no views).
 */
import { useEffect } from 'react';
import { LIVE_VIEW_MAX_MARKETS } from '../../../src/contract/live.ts';
import { call } from '../api.ts';
import { liveClient } from './client.ts';
import { forgetQuote, receiveBook, receiveQuotes, receiveStatus } from './store.ts';

/** Rows scrolled past in a fast scroll come and go within this; only what stays is asked for. */
const VIEW_DELAY_MS = 120;

const held = new Map<string, number>();
let bookHeld: { id: string; n: number } | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let sentKey = '';
/** The markets of the last view sent: a quote is forgotten once its market leaves the view. */
let sentMarkets = new Set<string>();
let inFlight = false;
let again = false;

function scheduleSend(): void {
  if (timer === undefined) timer = setTimeout(send, VIEW_DELAY_MS);
}

async function send(): Promise<void> {
  timer = undefined;
  if (inFlight) {
    again = true;
    return;
  }
  // The newest rows count most: a long list keeps the last ones held (the ones on screen now).
  const markets = [...held.keys()].slice(-LIVE_VIEW_MAX_MARKETS);
  const book = bookHeld?.id;
  const key = `${markets.join(',')}|${book ?? ''}`;
  if (key === sentKey) return;
  inFlight = true;
  try {
    const v = await call('live.view', { client: liveClient, market: markets.map(Number), ...(book ? { book: Number(book) } : {}) });
    sentKey = key;
    const now = new Set([...markets, ...(book ? [book] : [])]);
    for (const id of sentMarkets) if (!now.has(id)) forgetQuote(id);
    sentMarkets = now;
    receiveQuotes(v.quotes);
    receiveStatus(v.status);
    receiveBook(v.book, book);
  } catch {
    // The service is unreachable or restarting: `resendView` runs when it is back.
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      scheduleSend();
    }
  }
}

/** Asks again for the whole view (the push stream reconnected, or the service restarted). */
export function resendView(): void {
  sentKey = '';
  scheduleSend();
}

function hold(id: string): () => void {
  held.set(id, (held.get(id) ?? 0) + 1);
  scheduleSend();
  return () => {
    const n = held.get(id) ?? 0;
    if (n > 1) held.set(id, n - 1);
    else held.delete(id);
    scheduleSend();
  };
}

/** Keeps a market's quote streaming while the calling component is mounted. */
export function useHoldMarket(id: string | undefined): void {
  useEffect(() => (id === undefined || id === '' ? undefined : hold(id)), [id]);
}

/** Streams a market's books and tape (the open market page) while the calling component is mounted. */
export function useHoldBook(id: string | undefined): void {
  useEffect(() => {
    if (id === undefined) return undefined;
    bookHeld = bookHeld?.id === id ? { id, n: bookHeld.n + 1 } : { id, n: 1 };
    const release = hold(id);
    return () => {
      if (bookHeld?.id === id) bookHeld = bookHeld.n > 1 ? { id, n: bookHeld.n - 1 } : undefined;
      release();
    };
  }, [id]);
}
