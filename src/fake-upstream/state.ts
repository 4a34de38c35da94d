/** What the fake upstream's routes share: the catalog and the fake APIs' state, built from its options. */
import type { FakeCatalog } from './catalog.ts';
import { FakeClob, parseList } from './clob.ts';
import type { ClobMarketSource } from './clob-markets.ts';
import { FakeLeaderboard } from './data-api.ts';
import { FakeDataV2 } from './data-v2.ts';
import { FakeMarketWs } from './market-ws.ts';
import type { Limits } from './query.ts';
import type { FakeUpstreamOptions } from './server.ts';
import { FakeTrading } from './trading.ts';

export interface FakeState {
  catalog: FakeCatalog;
  /** The CLOB's order list: present when the fake was given credentials. */
  clob: FakeClob | undefined;
  leaderboard: FakeLeaderboard;
  /** Data API v2 (`/v2/positions`, `/v2/activity`, `/v2/trades`, `/v2/value`) of one scripted account. */
  dataV2: FakeDataV2;
  trading: FakeTrading;
  /** The CLOB market channel at `/ws/market` (market-ws.ts), on the same books as `trading`. */
  marketWs: FakeMarketWs;
  /** Gamma's silent `limit` clamp and `offset` cap on the listings. */
  paging: Limits;
  /** Serve Gamma's keyset listings; false makes them 404. */
  keyset: boolean;
}

export function createState(opts: FakeUpstreamOptions): FakeState {
  const { catalog } = opts;
  const clob = opts.clob ? new FakeClob(opts.clob, catalog) : undefined;
  const index = tokenIndex(catalog);
  // Placed and cancelled orders show in the CLOB's order list when there is one.
  const trading = new FakeTrading({
    ...(clob ? { credentials: opts.clob!.credentials, clob } : {}),
    priceOf: (t) => index().prices.get(t),
    hasNoBook: (t) => index().bookless.has(t),
    markets: () => index().markets,
    conditionOf: (t) => index().conditions.get(t),
    ...opts.trading,
  });
  return {
    catalog,
    clob,
    leaderboard: new FakeLeaderboard(opts.leaderboard),
    // The scripted account is the CLOB's (the demo account) when the fake has one.
    dataV2: new FakeDataV2(catalog, {
      ...(opts.clob?.credentials.address ? { user: opts.clob.credentials.address } : {}),
      ...opts.dataV2,
    }),
    trading,
    marketWs: new FakeMarketWs(trading, catalog, opts.marketWs),
    paging: { maxLimit: opts.maxLimit ?? 100, maxOffset: opts.maxOffset ?? 2000 },
    keyset: opts.keyset ?? true,
  };
}

interface TokenIndex {
  /** id -> its outcome's price (v1: the clobTokenIds; v2: the positionIds). */
  prices: Map<string, number>;
  /** Ids the catalog names that the CLOB has no book for: a v1 market's positionIds, a v2 market's CTF token ids. */
  bookless: Set<string>;
  /** Each traded id's market (its condition id). */
  conditions: Map<string, string>;
  /** The catalog's markets as the CLOB lists them, in catalog order (those with a condition id). */
  markets: ClobMarketSource[];
}

/**
 * The catalog's outcome ids, built on first use (a book asked of a big catalog) and again after the
 * catalog changed (a mutation opened a market or moved a price): the CLOB answers by the id kind of
 * the market's own `version` and has no book for the other kind.
 */
function tokenIndex(catalog: FakeCatalog): () => TokenIndex {
  let index: TokenIndex | undefined;
  let version = -1;
  return () => {
    if (index && version === catalog.version) return index;
    version = catalog.version;
    const built: TokenIndex = {
      prices: new Map(),
      bookless: new Set(catalog.protocolIds.retired.keys()),
      conditions: new Map(),
      markets: [],
    };
    for (const rec of catalog.marketRecords()) {
      const m = rec.obj as Record<string, unknown>;
      const v2 = m['version'] === 'v2';
      const positions = Array.isArray(m['positionIds']) ? m['positionIds'].filter((x): x is string => typeof x === 'string') : [];
      const tokens = v2 ? positions : parseList(m['clobTokenIds']);
      if (!v2) for (const p of positions) built.bookless.add(p);
      else for (const t of parseList(m['clobTokenIds'])) built.bookless.add(t);
      const values = parseList(m['outcomePrices']);
      tokens.forEach((t, i) => {
        const p = Number(values[i]);
        if (values[i]?.trim() && Number.isFinite(p)) built.prices.set(t, p);
      });
      const market = clobMarketSource(m, tokens);
      if (market) {
        built.markets.push(market);
        for (const t of tokens) built.conditions.set(t, market.conditionId);
      }
    }
    for (const t of built.prices.keys()) built.bookless.delete(t);
    index = built;
    return built;
  };
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && Number.isFinite(Number(v)) ? Number(v) : 0;

/** A Gamma market as the CLOB's market reads see it (clob-markets.ts); undefined without a 0x condition id. */
function clobMarketSource(m: Record<string, unknown>, tokens: string[]): ClobMarketSource | undefined {
  const conditionId = text(m['conditionId']);
  if (!/^0x[0-9a-fA-F]{64}$/.test(conditionId)) return undefined;
  const outcomes = parseList(m['outcomes']);
  const events = Array.isArray(m['events']) ? (m['events'] as Record<string, unknown>[]) : [];
  const active = m['active'] === true;
  const closed = m['closed'] === true;
  return {
    conditionId,
    questionId: text(m['questionID']),
    question: text(m['question']),
    description: text(m['description']),
    slug: text(m['slug']),
    eventSlug: text(events[0]?.['slug']),
    endDate: text(m['endDate']) || null,
    active,
    closed,
    archived: m['archived'] === true,
    acceptingOrders: typeof m['acceptingOrders'] === 'boolean' ? m['acceptingOrders'] : active && !closed,
    acceptingOrdersTimestamp: text(m['acceptingOrdersTimestamp']) || null,
    enableOrderBook: m['enableOrderBook'] !== false,
    icon: text(m['icon']),
    image: text(m['image']),
    negRiskMarketId: text(m['negRiskMarketID']),
    negRiskRequestId: text(m['negRiskRequestID']),
    rewardsMinSize: num(m['rewardsMinSize']),
    rewardsMaxSpread: num(m['rewardsMaxSpread']),
    tokens: tokens.map((id, i) => ({ id, outcome: outcomes[i] ?? (i === 0 ? 'Yes' : 'No') })),
  };
}
