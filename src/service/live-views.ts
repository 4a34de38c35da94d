/**
 * Live views (issue 26): each client's markets on screen and open market page, streamed to that
 * client only. `live.view` names them; their trading ids are held in the live layer under the
 * owner `view:<client>` (so they are subscribed upstream), the current quotes are answered at
 * once, and every change after that goes to the client's push stream: `quotes` (the markets whose
 * price, best bid or ask, last trade or state changed) and `liveBook` (the open page's books and
 * tape), each coalesced to at most one batch per FRAME_MS. `live` (the layer's health) goes to
 * every client each second while anything is subscribed.
 *
 * A view lives while its client's push stream is open (web: `GET /stream?client=ID`; the desktop
 * window holds `desktop` for the worker's life); a view whose client has no stream for
 * ORPHAN_MS is dropped, so a script that asked once and left does not keep sockets open.
 */
import type { HandlersFor } from '../contract/handlers.ts';
import {
  badRequest,
  LIVE_CLIENT_PATTERN,
  type LiveMarketBook,
  type LiveQuote,
  type LiveView,
  type Market,
  type PushEvents,
  type TapeTrade,
} from '../contract/index.ts';
import { outcomesOf, tradingIds } from '../contract/market-rules.ts';
import { quoteOf, type LiveMarkets } from '../live/index.ts';
import type { PushHub, PushListener } from './push.ts';

/** One batch per frame at most: a client's changes within this window go out together. */
export const FRAME_MS = 16;
/** A view without a push stream is dropped after this long. */
export const ORPHAN_MS = 30_000;
/** `live` (the health) is sent this often while anything is subscribed. */
export const STATUS_EVERY_MS = 1_000;

interface Tradable {
  assetIds: string[];
  names: string[];
}

interface View {
  markets: Set<string>;
  book: string | null;
  release: () => void;
  /** Last quote sent per market, as JSON: a change that moves nothing visible is not sent. */
  sent: Map<string, string>;
  dirty: Set<string>;
  bookDirty: boolean;
  orphanSince: number | null;
}

type Sink = <K extends 'quotes' | 'liveBook'>(name: K, payload: PushEvents[K]) => void;

export interface LiveViewsOptions {
  /** A market by id from the cache (the store's reader). */
  market(id: number): Market | undefined;
  /** The cache's version: a market's trading ids are read again after it changes. */
  catalogVersion(): number;
  now?: () => number;
  /** Default ORPHAN_MS. */
  orphanMs?: number;
}

export class LiveViews {
  private readonly views = new Map<string, View>();
  private readonly sinks = new Map<string, Set<Sink>>();
  /** asset -> the markets (of any view) trading under it. */
  private readonly marketsOfAsset = new Map<string, Set<string>>();
  /** market -> clients viewing it (as a row, or as the open page). */
  private readonly clientsOfMarket = new Map<string, Set<string>>();
  private readonly tradable = new Map<string, Tradable | null>();
  private tradableVersion = -1;
  private timer: NodeJS.Timeout | undefined;
  private readonly offs: (() => void)[];
  private readonly now: () => number;
  private readonly orphanMs: number;
  private orphanTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly live: LiveMarkets,
    private readonly o: LiveViewsOptions,
  ) {
    this.now = o.now ?? Date.now;
    this.orphanMs = o.orphanMs ?? ORPHAN_MS;
    const touched = (e: { assetId: string }) => this.touched(e.assetId, false);
    this.offs = [
      live.on('price', touched),
      live.on('trade', (e) => this.touched(e.assetId, true)),
      // Snapshots can change a quote's state; level changes only the open page's book.
      live.on('book', (e) => this.touched(e.assetId, true, !e.snapshot)),
    ];
  }

  /** Sets a client's view; answers its quotes, the open page's book, and the layer's health. */
  view(client: string, marketIds: readonly number[], book: number | undefined): LiveView {
    if (!LIVE_CLIENT_PATTERN.test(client)) throw badRequest('catalog', 'client must be 1-64 letters, digits, "-" or "_"');
    const markets = new Set(marketIds.map(String).filter((id) => this.tradableOf(id)));
    const bookId = book !== undefined && this.tradableOf(String(book)) ? String(book) : null;
    const before = this.views.get(client);
    const assets = new Set<string>();
    for (const id of [...markets, ...(bookId ? [bookId] : [])]) for (const a of this.tradableOf(id)!.assetIds) assets.add(a);
    // Acquired before the old view is released, so assets in both stay subscribed.
    const release = this.live.acquire([...assets], `view:${client}`);
    if (before) this.unindex(client, before);
    before?.release();
    if (markets.size === 0 && bookId === null) {
      release();
      this.views.delete(client);
      return { client, quotes: [], book: null, status: this.live.status() };
    }
    const v: View = {
      markets,
      book: bookId,
      release,
      sent: new Map(),
      dirty: new Set(),
      bookDirty: false,
      orphanSince: this.sinks.has(client) ? null : this.now(),
    };
    this.views.set(client, v);
    this.index(client, v);
    const quotes: LiveQuote[] = [];
    for (const id of markets) {
      const q = this.quote(id);
      v.sent.set(id, JSON.stringify(q));
      quotes.push(q);
    }
    this.dropOrphans();
    return { client, quotes, book: bookId ? this.marketBook(bookId) : null, status: this.live.status() };
  }

  /** Ends a client's view (its stream closed for good). */
  drop(client: string): void {
    const v = this.views.get(client);
    if (!v) return;
    this.unindex(client, v);
    v.release();
    this.views.delete(client);
  }

  /** The client's push stream: `quotes` and `liveBook` for its view go to `sink`. */
  attach(client: string, sink: Sink): () => void {
    let set = this.sinks.get(client);
    if (!set) {
      set = new Set();
      this.sinks.set(client, set);
    }
    set.add(sink);
    const v = this.views.get(client);
    if (v) v.orphanSince = null;
    return () => {
      set.delete(sink);
      if (set.size > 0) return;
      this.sinks.delete(client);
      const view = this.views.get(client);
      if (view) view.orphanSince = this.now();
      this.dropOrphans();
    };
  }

  /** Clients with a view (tests, /status). */
  clients(): string[] {
    return [...this.views.keys()];
  }

  close(): void {
    for (const off of this.offs) off();
    if (this.timer) clearTimeout(this.timer);
    if (this.orphanTimer) clearTimeout(this.orphanTimer);
    this.timer = undefined;
    this.orphanTimer = undefined;
    for (const client of [...this.views.keys()]) this.drop(client);
    this.sinks.clear();
  }

  /** A market's quote now. */
  quote(marketId: string): LiveQuote {
    return quoteOf(this.live, marketId, this.tradableOf(marketId)?.assetIds ?? []);
  }

  /** A market's books and tape now. */
  marketBook(marketId: string): LiveMarketBook {
    const t = this.tradableOf(marketId) ?? { assetIds: [], names: [] };
    const tape: TapeTrade[] = [];
    t.assetIds.forEach((assetId, i) => {
      for (const tr of this.live.trades(assetId)) {
        const price = Number(tr.price);
        if (!Number.isFinite(price)) continue;
        const size = tr.size === null ? null : Number(tr.size);
        tape.push({
          assetId,
          outcome: t.names[i] ?? `Outcome ${i + 1}`,
          side: tr.side,
          price,
          size: size !== null && Number.isFinite(size) ? size : null,
          time: tr.time ?? 0,
          transactionHash: tr.transactionHash,
        });
      }
    });
    tape.sort((a, b) => b.time - a.time);
    return {
      marketId,
      outcomes: t.assetIds.map((assetId, i) => ({
        name: t.names[i] ?? `Outcome ${i + 1}`,
        assetId,
        book: this.live.book(assetId) ?? null,
      })),
      tape: tape.slice(0, 50),
    };
  }

  /** The market's trading ids and outcome names; null when it is unknown or cannot stream. */
  private tradableOf(marketId: string): Tradable | null {
    const version = this.o.catalogVersion();
    if (version !== this.tradableVersion) {
      this.tradableVersion = version;
      this.tradable.clear();
    }
    let t = this.tradable.get(marketId);
    if (t === undefined) {
      const m = /^\d{1,15}$/.test(marketId) ? this.o.market(Number(marketId)) : undefined;
      const ids = m ? tradingIds(m) : undefined;
      t = m && ids?.ok && ids.ids.length > 0 ? { assetIds: ids.ids, names: outcomesOf(m).map((o) => o.name) } : null;
      this.tradable.set(marketId, t);
    }
    return t;
  }

  private index(client: string, v: View): void {
    for (const id of [...v.markets, ...(v.book ? [v.book] : [])]) {
      let clients = this.clientsOfMarket.get(id);
      if (!clients) {
        clients = new Set();
        this.clientsOfMarket.set(id, clients);
        for (const a of this.tradableOf(id)?.assetIds ?? []) {
          let ms = this.marketsOfAsset.get(a);
          if (!ms) {
            ms = new Set();
            this.marketsOfAsset.set(a, ms);
          }
          ms.add(id);
        }
      }
      clients.add(client);
    }
  }

  private unindex(client: string, v: View): void {
    for (const id of [...v.markets, ...(v.book ? [v.book] : [])]) {
      const clients = this.clientsOfMarket.get(id);
      if (!clients) continue;
      clients.delete(client);
      if (clients.size > 0) continue;
      this.clientsOfMarket.delete(id);
      for (const [a, ms] of this.marketsOfAsset) {
        if (ms.delete(id) && ms.size === 0) this.marketsOfAsset.delete(a);
      }
    }
  }

  /** An asset's book, prices or trades changed: mark the quotes and pages showing it. */
  private touched(assetId: string, bookToo: boolean, bookOnly = false): void {
    const markets = this.marketsOfAsset.get(assetId);
    if (!markets) return;
    let any = false;
    for (const id of markets) {
      for (const client of this.clientsOfMarket.get(id) ?? []) {
        const v = this.views.get(client);
        if (!v || !this.sinks.has(client)) continue;
        if (!bookOnly && v.markets.has(id)) {
          v.dirty.add(id);
          any = true;
        }
        if (bookToo && v.book === id) {
          v.bookDirty = true;
          any = true;
        }
      }
    }
    if (any && !this.timer) {
      this.timer = setTimeout(() => this.flush(), FRAME_MS);
      this.timer.unref();
    }
  }

  private flush(): void {
    this.timer = undefined;
    for (const [client, v] of this.views) {
      const sinks = this.sinks.get(client);
      if (!sinks) continue;
      if (v.dirty.size > 0) {
        const quotes: LiveQuote[] = [];
        for (const id of v.dirty) {
          const q = this.quote(id);
          const text = JSON.stringify(q);
          if (v.sent.get(id) === text) continue;
          v.sent.set(id, text);
          quotes.push(q);
        }
        v.dirty.clear();
        if (quotes.length > 0) for (const s of sinks) s('quotes', { quotes });
      }
      if (v.bookDirty && v.book) {
        v.bookDirty = false;
        const book = this.marketBook(v.book);
        for (const s of sinks) s('liveBook', book);
      }
    }
  }

  /** Drops the views whose stream has been gone long enough; checks again when the next one will be. */
  private dropOrphans(): void {
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [client, v] of this.views) {
      if (v.orphanSince === null) continue;
      if (now - v.orphanSince >= this.orphanMs) this.drop(client);
      else next = Math.min(next, v.orphanSince + this.orphanMs);
    }
    if (this.orphanTimer) clearTimeout(this.orphanTimer);
    this.orphanTimer = undefined;
    if (next === Number.POSITIVE_INFINITY) return;
    this.orphanTimer = setTimeout(() => this.dropOrphans(), Math.max(0, next - now));
    this.orphanTimer.unref();
  }
}

/** The `live.view` operation. */
export function liveViewHandlers(views: LiveViews): HandlersFor<'live.view'> {
  return {
    'live.view': (p) => views.view(p.client, p.market ?? [], p.book),
  };
}

/**
 * The push hub with the live events added: `live` to every subscriber (each second while anything
 * is subscribed, and at once when the layer's state changes), `quotes` and `liveBook` to the
 * subscriber whose client they are for.
 */
export function withLivePush(hub: PushHub, live: LiveMarkets, views: LiveViews): PushHub {
  const listeners = new Set<PushListener>();
  let lastState = '';
  const sendStatus = (force: boolean) => {
    if (listeners.size === 0) return;
    const status = live.status();
    const state = `${status.state}/${status.stalled}/${status.sockets.open}/${status.sockets.total}`;
    if (!force && status.assets === 0 && state === lastState) return;
    lastState = state;
    for (const fn of listeners) {
      try {
        fn('live', status);
      } catch {
        // One broken transport must not starve the others.
      }
    }
  };
  const timer = setInterval(() => sendStatus(false), STATUS_EVERY_MS);
  timer.unref();
  const offHealth = live.on('health', () => sendStatus(false));
  return {
    snapshot: () => ({ ...hub.snapshot(), live: live.status() }),
    subscribe(fn, client) {
      const unsubscribe = hub.subscribe(fn, client);
      listeners.add(fn);
      const detach = client === undefined ? undefined : views.attach(client, (name, payload) => fn(name, payload));
      return () => {
        unsubscribe();
        listeners.delete(fn);
        detach?.();
      };
    },
    close() {
      clearInterval(timer);
      offHealth();
      listeners.clear();
      views.close();
      hub.close();
    },
  };
}
