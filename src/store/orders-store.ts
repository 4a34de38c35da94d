/**
 * The account's open orders, cached in the catalog database (same file, same persistence) so
 * `/data/orders` answers offline. Each refresh replaces the account's whole list: the upstream
 * lists open orders only, so an order missing from a complete fetch has filled or been cancelled.
 * Only one account's orders are kept; switching credentials drops the previous account's.
 * The tables: migrations.ts v3; `expiration` (unix seconds as a string, "0" = none) v4.
 */
import { textList, tradingIds } from '../contract/market-rules.ts';
import { fromColumn } from './fields.ts';
import type { Order } from '../contract/orders-ops.ts';
import type { Bind, Row, Statements } from './statements.ts';

/** An order as cached: the spec's fields plus what only Polymarket's shape carries. */
export interface CachedOrder extends Order {
  expiration: string;
}

const COLS =
  'id, status, market, asset_id, outcome, maker_address, owner, price, original_size, size_matched, side, type, ' +
  'associate_trades, created_at, updated_at, expiration';

function toOrder(r: Row): CachedOrder {
  return {
    id: r[0] as string,
    status: r[1] as string,
    market: r[2] as string,
    assetId: r[3] as string,
    outcome: r[4] as string,
    makerAddress: r[5] as string,
    owner: r[6] as string,
    price: r[7] as string,
    originalSize: r[8] as string,
    sizeMatched: r[9] as string,
    side: r[10] as string,
    type: r[11] as string,
    associateTrades: JSON.parse(r[12] as string) as string[],
    createdAt: r[13] as string,
    updatedAt: r[14] as string,
    expiration: r[15] as string,
  };
}

/** The fields whose change means the order moved (fills, status), for `updatedAt`. */
const changeKey = (o: Order): string => JSON.stringify([o.status, o.sizeMatched, o.price, o.originalSize, o.associateTrades]);

/** An order with what the cache knows of its market (all null when the market is not cached). */
export interface JoinedOrder extends CachedOrder {
  /** The upstream's order, for stable ties. */
  position: number;
  marketId: string | null;
  question: string | null;
  /** The outcome the order's token stands for: the market's outcome at the token's place in its trading ids (tradingIds). */
  outcomeName: string | null;
  eventTitle: string | null;
  /** The cached market's price for the order's outcome (its `outcomePrices` entry, dollars), or null. */
  currentPrice: number | null;
}

const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

interface OrdersMarket {
  id: string;
  question: string | null;
  eventTitle: string | null;
  /** Token id -> outcome name. */
  outcomes: Map<string, string>;
  /** Token id -> the catalog's price of that outcome (as of the last sync). */
  prices: Map<string, number>;
}

function ordersMarket(r: Row): OrdersMarket {
  const names = textList(r[3]);
  const quoted = textList(r[8]);
  const outcomes = new Map<string, string>();
  const prices = new Map<string, number>();
  // The ids the CLOB knows the market's outcomes by, chosen by its version (never positionIds for a v1 market).
  const trading = tradingIds({ outcomes: r[3], clobTokenIds: r[4], version: r[6] ?? undefined, positionIds: fromColumn('json', r[7]) });
  (trading.ok ? trading.ids : []).forEach((token, i) => {
    if (names[i] !== undefined) outcomes.set(token, names[i]);
    const price = quoted[i] === undefined || quoted[i] === '' ? Number.NaN : Number(quoted[i]);
    if (Number.isFinite(price)) prices.set(token, price);
  });
  return { id: String(r[1]), question: textOrNull(r[2]), eventTitle: textOrNull(r[5]), outcomes, prices };
}

/**
 * The cached markets the account's orders are on (by condition id, through its index), with
 * their first event's title. Orders name few distinct markets, so this is a short list, joined
 * to the orders in code: one correlated lookup per order cost several times more at 5,000 orders.
 */
const MARKETS_OF_ORDERS = `
SELECT m._condition_lc, m.id, m."question", m."outcomes", m."clobTokenIds",
  (SELECT e."title" FROM market_events me JOIN events e ON e.id = me.event_id
    WHERE me.market_id = m.id ORDER BY me.position, me.event_id LIMIT 1),
  m."version", m."positionIds", m."outcomePrices"
FROM markets m
WHERE m._condition_lc IN (SELECT DISTINCT _market_lc FROM orders WHERE account = ?)
ORDER BY m.id`;

export interface OrderFilters {
  id?: string;
  market?: string;
  assetId?: string;
}

export class OrdersStore {
  constructor(
    private readonly st: Statements,
    private readonly changed: () => void,
  ) {}

  /**
   * Replaces `account`'s orders with a complete fetch. An order the upstream gives no update
   * time for keeps its cached `updatedAt` while unchanged and gets `nowMs` when it changed.
   */
  replace(account: string, orders: readonly (Order & { expiration?: string })[], nowMs: number): void {
    const acct = account.toLowerCase();
    const nowIso = new Date(nowMs).toISOString();
    const before = new Map<string, { key: string; updatedAt: string }>();
    for (const r of this.st.all(`SELECT ${COLS} FROM orders WHERE account = ?`, [acct])) {
      const o = toOrder(r);
      before.set(o.id, { key: changeKey(o), updatedAt: o.updatedAt });
    }
    this.st.transaction(() => {
      this.st.run('DELETE FROM orders WHERE account <> ?', [acct]);
      this.st.run('DELETE FROM orders_fetches WHERE account <> ?', [acct]);
      this.st.run('DELETE FROM orders WHERE account = ?', [acct]);
      orders.forEach((o, position) => {
        let updatedAt = o.updatedAt;
        const prev = before.get(o.id);
        if (prev) {
          if (prev.key !== changeKey(o)) updatedAt = updatedAt > prev.updatedAt ? updatedAt : nowIso;
          else if (prev.updatedAt > updatedAt) updatedAt = prev.updatedAt;
        }
        this.st.run(
          `INSERT OR REPLACE INTO orders (account, position, ${COLS}, _id_lc, _market_lc) VALUES (?, ?, ${'?, '.repeat(16)}?, ?)`,
          [
            acct,
            position,
            o.id,
            o.status,
            o.market,
            o.assetId,
            o.outcome,
            o.makerAddress,
            o.owner,
            o.price,
            o.originalSize,
            o.sizeMatched,
            o.side,
            o.type,
            JSON.stringify(o.associateTrades),
            o.createdAt,
            updatedAt,
            o.expiration ?? '0',
            o.id.toLowerCase(),
            o.market.toLowerCase(),
          ],
        );
      });
      this.st.run('INSERT OR REPLACE INTO orders_fetches (account, fetched_at) VALUES (?, ?)', [acct, nowMs]);
    });
    this.changed();
  }

  /** One page in upstream order; `more` says whether anything follows it. */
  page(account: string, f: OrderFilters, offset: number, limit: number): { data: CachedOrder[]; more: boolean } {
    const where = ['account = ?'];
    const bind: Bind = [account.toLowerCase()];
    // Order hashes and condition ids are hex: any letter case names the same one.
    const filter = (sql: string, v: string | undefined) => {
      if (v === undefined) return;
      where.push(sql);
      bind.push(v);
    };
    filter('_id_lc = ?', f.id?.toLowerCase());
    filter('_market_lc = ?', f.market?.toLowerCase());
    filter('asset_id = ?', f.assetId);
    const rows = this.st.all(`SELECT ${COLS} FROM orders WHERE ${where.join(' AND ')} ORDER BY position LIMIT ? OFFSET ?`, [
      ...bind,
      limit + 1,
      offset,
    ]);
    return { data: rows.slice(0, limit).map(toOrder), more: rows.length > limit };
  }

  /** Every order of `account` with its cached market, in upstream order. */
  joined(account: string): JoinedOrder[] {
    const acct = account.toLowerCase();
    const markets = new Map<string, OrdersMarket>();
    // Lowest id first wins, should two cached markets share a condition id.
    for (const r of this.st.all(MARKETS_OF_ORDERS, [acct])) if (!markets.has(r[0] as string)) markets.set(r[0] as string, ordersMarket(r));
    return this.st.all(`SELECT ${COLS}, position, _market_lc FROM orders WHERE account = ? ORDER BY position`, [acct]).map((r) => {
      const m = markets.get(r[17] as string);
      // Filled in place (no copy): a few thousand rows are read per call.
      const o = toOrder(r) as JoinedOrder;
      o.position = r[16] as number;
      o.marketId = m?.id ?? null;
      o.question = m?.question ?? null;
      o.outcomeName = m?.outcomes.get(o.assetId) ?? null;
      o.eventTitle = m?.eventTitle ?? null;
      o.currentPrice = m?.prices.get(o.assetId) ?? null;
      return o;
    });
  }

  count(account: string): number {
    return Number(this.st.value('SELECT count(*) FROM orders WHERE account = ?', [account.toLowerCase()]) ?? 0);
  }

  /** When `account`'s list was last fetched whole (epoch ms), or null. */
  fetchedAt(account: string): number | null {
    const v = this.st.value('SELECT fetched_at FROM orders_fetches WHERE account = ?', [account.toLowerCase()]);
    return typeof v === 'number' ? v : null;
  }

  /** Drops every cached order (credentials cleared), or every one not of `keep`'s account. */
  clear(keep?: string): void {
    const k = keep?.toLowerCase() ?? '';
    // Nothing to drop, nothing written (a read-only cache file takes no write, not even an empty one).
    const any = 'SELECT 1 FROM orders WHERE account <> ? UNION ALL SELECT 1 FROM orders_fetches WHERE account <> ? LIMIT 1';
    if (this.st.value(any, [k, k]) === undefined) return;
    let n = 0;
    this.st.transaction(() => {
      this.st.run('DELETE FROM orders WHERE account <> ?', [k]);
      n += this.st.changes();
      this.st.run('DELETE FROM orders_fetches WHERE account <> ?', [k]);
      n += this.st.changes();
    });
    if (n > 0) this.changed();
  }
}
