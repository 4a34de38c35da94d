/**
 * A market page's chart and book (`markets.chart`, `markets.book`): the market's outcomes and
 * trading ids (market-rules.ts tradingIds: by `version`) come from the cache, the prices from
 * the upstream CLOB (`/prices-history`, `/book`, one request per id) through the UpstreamClient
 * and so the outbound scheduler, the way the trading forwarder sends them. A market that cannot
 * be traded answers no outcomes and `tradingOff`, asking the CLOB nothing. Each answer is kept in the cache's market_page_cache table: a
 * book is refetched when older than 2 s, a chart when older than 60 s, and while the upstream
 * cannot be reached the kept copy is answered with `stale: true` (nothing kept: 503).
 */
import {
  ApiError,
  badRequest,
  notFound,
  type ChartInterval,
  type MarketBook,
  type MarketChart,
  type OutcomeBook,
  type PricePoint,
} from '../contract/index.ts';
import type { CatalogReads, MarketPages } from '../store/store-api.ts';
import type { PageKind } from '../store/market-page-cache.ts';
import { DeadlineError, UpstreamError, type UpstreamClient } from '../upstream/client.ts';
import type { CallContext, HandlersFor } from '../contract/handlers.ts';
import { jsonList, tradingIds } from '../contract/market-rules.ts';

/** The CLOB's interval names and a point spacing (minutes) that gives a few hundred points each. */
export const CHART_QUERY: Record<ChartInterval, { interval: string; fidelity: number }> = {
  '1h': { interval: '1h', fidelity: 1 },
  '6h': { interval: '6h', fidelity: 1 },
  '1d': { interval: '1d', fidelity: 5 },
  '1w': { interval: '1w', fidelity: 30 },
  '1m': { interval: '1m', fidelity: 180 },
  all: { interval: 'max', fidelity: 1440 },
};

export interface MarketPageOptions {
  reader: CatalogReads;
  cache: MarketPages;
  client: UpstreamClient;
  /** Never contact the upstream (`--offline`): kept copies only. */
  offline?: boolean;
  /** Refetch ages, ms (default: book 2 s, chart 60 s). */
  ttlMs?: { book?: number; chart?: number };
  now?: () => number;
}

interface Token {
  name: string;
  tokenId: string;
}

const unavailable = () => new ApiError(503, { type: 'service unavailable', error: 'the upstream cannot be reached and nothing is cached' });

type Page = Pick<MarketChart, 'fetchedAt' | 'stale'>;

export function marketPageHandlers(opts: MarketPageOptions): HandlersFor<'markets.chart' | 'markets.book'> {
  const now = opts.now ?? Date.now;
  const ttl = { book: opts.ttlMs?.book ?? 2_000, chart: opts.ttlMs?.chart ?? 60_000 };
  const inFlight = new Map<string, Promise<unknown>>();

  /**
   * The market's outcomes with their trading ids (cache; market-rules.ts tradingIds, chosen by
   * `version`): none for a market that cannot be traded, so nothing is asked of the CLOB for it.
   * 400 for a malformed id, 404 for an unknown one.
   */
  function tokens(id: string): { marketId: number; tokens: Token[]; off?: string } {
    if (!/^\d{1,15}$/.test(id)) throw badRequest('catalog', 'id is invalid');
    const m = opts.reader.getMarket(Number(id));
    if (!m) throw notFound('id');
    const trading = tradingIds(m);
    if (!trading.ok) return { marketId: Number(id), tokens: [], off: trading.reason };
    const names = jsonList(m.outcomes);
    return { marketId: Number(id), tokens: trading.ids.map((t, i) => ({ name: String(names[i] ?? `Outcome ${i + 1}`), tokenId: t })) };
  }

  /**
   * The kept copy while fresh; else a fetch (one at a time per key), kept; else, when the
   * upstream fails, the kept copy marked stale. `fetchAll` gives the outcomes' parts in order.
   */
  async function read<T extends Page>(
    kind: PageKind,
    marketId: number,
    variant: string,
    fetchAll: () => Promise<Omit<T, keyof Page>>,
    ctx: CallContext,
  ): Promise<T> {
    const kept = opts.cache.get<T>(kind, marketId, variant);
    const age = kept ? now() - kept.fetchedAt : Number.POSITIVE_INFINITY;
    if (kept && age < ttl[kind]) return { ...kept.value, stale: false };
    const staleCopy = () => {
      if (!kept) throw unavailable();
      return { ...kept.value, stale: true };
    };
    if (opts.offline) return staleCopy();
    const key = `${kind}/${marketId}/${variant}`;
    let p = inFlight.get(key) as Promise<T> | undefined;
    if (!p) {
      p = (async () => {
        const parts = await fetchAll();
        const at = now();
        const value = { ...parts, fetchedAt: new Date(at).toISOString(), stale: false } as T;
        opts.cache.put(kind, marketId, variant, value, at);
        return value;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, p);
    }
    try {
      return await p;
    } catch (e) {
      if (e instanceof ApiError) throw e;
      // The outbound budget stayed full: say when to come back if there is nothing to show.
      if (e instanceof DeadlineError && !kept) ctx.header?.('retry-after', String(Math.max(1, Math.ceil(e.retryAfterMs / 1000))));
      return staleCopy();
    }
  }

  const get = <T>(path: string, query: Record<string, string | number>, ctx: CallContext) =>
    opts.client.request<T>('clob', path, {
      query,
      group: `GET ${path}`,
      priority: 'user',
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });

  return {
    'markets.chart': async (p, ctx): Promise<MarketChart> => {
      const { marketId, tokens: ts, off } = tokens(p.id);
      if (ts.length === 0)
        return {
          id: p.id,
          interval: p.interval,
          fetchedAt: null,
          stale: false,
          outcomes: [],
          ...(off !== undefined ? { tradingOff: off } : {}),
        };
      const q = CHART_QUERY[p.interval];
      return read<MarketChart>(
        'chart',
        marketId,
        p.interval,
        async () => ({
          id: p.id,
          interval: p.interval,
          outcomes: await Promise.all(
            ts.map(async (t) => {
              const r = await get<{ history?: PricePoint[] }>('/prices-history', { market: t.tokenId, ...q }, ctx);
              const history = (r?.history ?? []).filter((pt) => Number.isFinite(pt?.t) && Number.isFinite(pt?.p));
              return { ...t, history: history.map((pt) => ({ t: pt.t, p: pt.p })) };
            }),
          ),
        }),
        ctx,
      );
    },
    'markets.book': async (p, ctx): Promise<MarketBook> => {
      const { marketId, tokens: ts, off } = tokens(p.id);
      if (ts.length === 0)
        return { id: p.id, fetchedAt: null, stale: false, outcomes: [], ...(off !== undefined ? { tradingOff: off } : {}) };
      return read<MarketBook>(
        'book',
        marketId,
        '',
        async () => ({
          id: p.id,
          outcomes: await Promise.all(ts.map(async (t) => ({ ...t, book: await bookOf(t.tokenId, ctx) }))),
        }),
        ctx,
      );
    },
  };

  /** A token's book in Polymarket's order (best last); null when the CLOB has none (404). */
  async function bookOf(tokenId: string, ctx: CallContext): Promise<OutcomeBook | null> {
    try {
      const b = await get<Partial<OutcomeBook>>('/book', { token_id: tokenId }, ctx);
      const levels = (l: unknown) =>
        (Array.isArray(l) ? l : []).map((x: { price?: unknown; size?: unknown }) => ({ price: String(x.price), size: String(x.size) }));
      return {
        bids: levels(b.bids),
        asks: levels(b.asks),
        ...(b.tick_size !== undefined ? { tick_size: String(b.tick_size) } : {}),
        ...(b.last_trade_price !== undefined ? { last_trade_price: String(b.last_trade_price) } : {}),
      };
    } catch (e) {
      if (e instanceof UpstreamError && e.status === 404) return null;
      throw e;
    }
  }
}
