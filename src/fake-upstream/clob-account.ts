/**
 * The fake CLOB's account routes beside the orders (CLOB V2, @polymarket/clob-client-v2 1.1.0 and
 * @polymarket/client 0.2.0): notifications, balances and allowances, order scoring, the maker's
 * liquidity-reward earnings, closed-only mode, readonly and builder API keys.
 *
 * Shapes follow the clients' types (clob-client-v2 `types/clob.d.ts`; @polymarket/bindings' CLOB
 * schemas, which @polymarket/client validates answers against: a notification carries an integer
 * `id` and a `timestamp`, allowances are keyed by spender address). The values are made up but
 * stable: derived by hash from the account, the market and the date, never random.
 *
 * State: notifications are dropped by `DELETE /notifications`; readonly keys are created and
 * deleted; builder keys are created and revoked; scoring follows the live order list (a cancelled
 * order stops scoring). Balances do not move: the fake settles nothing.
 */
import { createHash } from 'node:crypto';
import { COLLATERAL, pageOf, type Reply } from './clob-markets.ts';
import { EXCHANGE_V2, EXCHANGE_V3, NEG_RISK_EXCHANGE_V2 } from './order-signing.ts';

/** An open order as scoring needs it. */
export interface ScoredOrder {
  id: string;
  market: string;
  asset_id: string;
  price: string;
}

export interface AccountSources {
  /** The account's live orders, newest first. */
  openOrders(): ScoredOrder[];
  /** A token's midpoint. */
  mid(token: string): number;
  /** A market's max spread for rewards, in cents (0: no rewards). */
  maxSpread(conditionId: string): number;
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Notification {
  id: number;
  type: number;
  owner: string;
  payload: Record<string, unknown>;
  timestamp: number;
}

const json = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value) });
const bad = (error: string): Reply => json(400, { error });
const MAX_UINT256 = (2n ** 256n - 1n).toString();
/** The spenders the V2 exchanges need an allowance for. */
const SPENDERS = [EXCHANGE_V2, NEG_RISK_EXCHANGE_V2, EXCHANGE_V3];
/** A maker earns on at most this many of its markets (the fake's choice). */
const EARNING_MARKETS = 3;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function hashInt(label: string, mod: number): number {
  return createHash('sha256').update(label).digest().readUInt32LE(0) % mod;
}

const uuid = (label: string): string => {
  const k = createHash('sha256').update(label).digest('hex');
  return `${k.slice(0, 8)}-${k.slice(8, 12)}-4${k.slice(13, 16)}-8${k.slice(17, 20)}-${k.slice(20, 32)}`;
};

interface BuilderKey {
  key: string;
  secret: string;
  passphrase: string;
  createdAt: string;
  revokedAt: string | null;
}

export class FakeClobAccount {
  /** The account's notifications, oldest first; `DELETE /notifications` drops them. */
  readonly notifications: Notification[];
  /** Readonly keys by the API key that created them. */
  readonly readonlyKeys = new Map<string, string[]>();
  readonly builderKeys: BuilderKey[] = [];
  private made = 0;

  constructor(
    private readonly owner: { apiKey: string; address: string },
    private readonly sources: AccountSources,
  ) {
    const nowS = Math.floor(sources.now() / 1000);
    // Three notices about the account's newest orders (type 1: an order was filled; the payload is the fake's).
    this.notifications = sources
      .openOrders()
      .slice(0, 3)
      .map((o, i) => ({
        id: 1000 + i,
        type: 1,
        owner: owner.apiKey,
        payload: { order_id: o.id, market: o.market, asset_id: o.asset_id, price: o.price, matched_size: '1' },
        timestamp: nowS - 3600 * (i + 1),
      }));
  }

  notificationsList(): Reply {
    return json(200, this.notifications);
  }

  /** `DELETE /notifications?ids=1,2`: drops those (unknown ids are ignored); answers `null`. */
  dropNotifications(ids: string | null): Reply {
    if (!ids) return bad('ids is required');
    const drop = new Set(ids.split(',').map((x) => x.trim()));
    for (let i = this.notifications.length - 1; i >= 0; i--)
      if (drop.has(String(this.notifications[i]!.id))) this.notifications.splice(i, 1);
    return json(200, null);
  }

  /** `GET /balance-allowance`: collateral (no token) or one outcome token, in base units (6 decimals). */
  balanceAllowance(q: URLSearchParams): Reply {
    const type = q.get('asset_type');
    const token = q.get('token_id');
    if (type !== 'COLLATERAL' && type !== 'CONDITIONAL') return bad('invalid asset_type');
    if (type === 'CONDITIONAL' && (!token || !/^\d{1,80}$/.test(token))) return bad('token_id is required for CONDITIONAL');
    const units =
      type === 'COLLATERAL' ? 1000 + hashInt(`usdc:${this.owner.address}`, 9000) : hashInt(`shares:${this.owner.address}:${token}`, 500);
    return json(200, {
      balance: String(units * 1_000_000),
      allowances: Object.fromEntries(SPENDERS.map((s) => [s, MAX_UINT256])),
    });
  }

  /** `GET /order-scoring?order_id=`: a live order scores while its price is within its market's max spread of the midpoint. */
  scoring(orderId: string | null): Reply {
    if (!orderId) return bad('order_id is required');
    return json(200, { scoring: this.scores(orderId) });
  }

  /** `POST /orders-scoring`, body `["0x...", ...]`: order id -> scoring. */
  scoringMany(body: string): Reply {
    const ids = parse(body);
    if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return bad('Invalid payload');
    return json(200, Object.fromEntries((ids as string[]).map((id) => [id, this.scores(id)])));
  }

  private scores(orderId: string): boolean {
    const o = this.sources.openOrders().find((x) => x.id === orderId);
    if (!o) return false;
    const spread = this.sources.maxSpread(o.market) || 3;
    return Math.abs(Number(o.price) - this.sources.mid(o.asset_id)) * 100 <= spread;
  }

  /** The markets the maker earns in on a date: its live orders' first few markets. */
  private earningMarkets(): string[] {
    return [...new Set(this.sources.openOrders().map((o) => o.market))].slice(0, EARNING_MARKETS);
  }

  private earning(date: string, market: string): number {
    return hashInt(`earn:${this.owner.address}:${date}:${market}`, 5_000_000) / 1_000_000;
  }

  /** `GET /rewards/user?date=YYYY-MM-DD`: one row per market the maker earned in that day, paged. */
  earnings(q: URLSearchParams): Reply {
    const date = q.get('date');
    if (!date || !DATE.test(date)) return bad('invalid date');
    const rows = this.earningMarkets().map((market) => ({
      date,
      condition_id: market,
      asset_address: COLLATERAL,
      maker_address: this.owner.address,
      earnings: this.earning(date, market),
      asset_rate: 1,
    }));
    return pageOf(rows, q.get('next_cursor'), 100);
  }

  /** `GET /rewards/user/total?date=`: the day's earnings summed per asset. */
  totalEarnings(q: URLSearchParams): Reply {
    const date = q.get('date');
    if (!date || !DATE.test(date)) return bad('invalid date');
    const markets = this.earningMarkets();
    if (markets.length === 0) return json(200, []);
    const total = markets.reduce((s, m) => s + this.earning(date, m), 0);
    return json(200, [
      { date, asset_address: COLLATERAL, maker_address: this.owner.address, earnings: Number(total.toFixed(6)), asset_rate: 1 },
    ]);
  }

  /** `GET /rewards/user/percentages`: the maker's share of each market's rewards now, in percent. */
  percentages(): Reply {
    return json(200, Object.fromEntries(this.earningMarkets().map((m) => [m, hashInt(`share:${this.owner.address}:${m}`, 10_000) / 100])));
  }

  /** `GET /rewards/user/markets?date=`: the markets' reward configs with the maker's share and earnings, paged. */
  userMarkets(q: URLSearchParams, reward: (conditionId: string) => Record<string, unknown> | undefined): Reply {
    const date = q.get('date');
    if (!date || !DATE.test(date)) return bad('invalid date');
    const rows = this.earningMarkets().flatMap((m) => {
      const r = reward(m);
      if (!r) return [];
      return [
        {
          ...r,
          maker_address: this.owner.address,
          market_competitiveness: hashInt(`comp:${m}`, 100) / 10,
          earning_percentage: hashInt(`share:${this.owner.address}:${m}`, 10_000) / 100,
          earnings: [{ asset_address: COLLATERAL, earnings: this.earning(date, m), asset_rate: 1 }],
        },
      ];
    });
    const size = Number(q.get('page_size') ?? 100);
    return pageOf(rows, q.get('next_cursor'), Number.isInteger(size) && size > 0 && size <= 500 ? size : 100);
  }

  /** `POST /auth/readonly-api-key`: a new readonly key of the API key that asked. */
  createReadonly(apiKey: string): Reply {
    const key = uuid(`readonly:${apiKey}:${++this.made}`);
    const list = this.readonlyKeys.get(apiKey) ?? [];
    list.push(key);
    this.readonlyKeys.set(apiKey, list);
    return json(200, { apiKey: key });
  }

  readonlyList(apiKey: string): Reply {
    return json(200, [...(this.readonlyKeys.get(apiKey) ?? [])]);
  }

  /** `DELETE /auth/readonly-api-key`, body `{"key"}`: true when it was one of this API key's. */
  deleteReadonly(apiKey: string, body: string): Reply {
    const b = parse(body) as { key?: unknown } | undefined;
    if (!b || typeof b.key !== 'string') return bad('key is required');
    const list = this.readonlyKeys.get(apiKey) ?? [];
    const at = list.indexOf(b.key);
    if (at >= 0) list.splice(at, 1);
    return json(200, at >= 0);
  }

  /** `POST /auth/builder-api-key`: new builder credentials for the account. */
  createBuilder(): Reply {
    const n = ++this.made;
    const h = (label: string) => createHash('sha256').update(`builder:${label}:${this.owner.address}:${n}`).digest();
    const k: BuilderKey = {
      key: uuid(`builder:${this.owner.address}:${n}`),
      secret: h('secret').toString('base64url'),
      passphrase: h('passphrase').toString('hex'),
      createdAt: new Date(this.sources.now()).toISOString(),
      revokedAt: null,
    };
    this.builderKeys.push(k);
    return json(200, { key: k.key, secret: k.secret, passphrase: k.passphrase });
  }

  /** `GET /auth/builder-api-key`: the account's builder keys, revoked ones with their `revokedAt` (clob-client-v2's type). */
  builderList(): Reply {
    return json(
      200,
      this.builderKeys.map((k) => ({ key: k.key, createdAt: k.createdAt, ...(k.revokedAt !== null ? { revokedAt: k.revokedAt } : {}) })),
    );
  }

  /**
   * `DELETE /auth/builder-api-key`: revokes the builder key named by `POLY_BUILDER_API_KEY` when
   * the request carries one, else (an L2-signed request, as clob-client-v2 sends it) every active
   * one of the account: the fake's reading, no captured answer says which. Answers `"OK"`.
   */
  revokeBuilder(builderKey: string | undefined): Reply {
    const at = new Date(this.sources.now()).toISOString();
    for (const k of this.builderKeys) if (k.revokedAt === null && (builderKey === undefined || k.key === builderKey)) k.revokedAt = at;
    return json(200, 'OK');
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
