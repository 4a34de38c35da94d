/**
 * The fake CLOB's market reads (CLOB V2, @polymarket/clob-client-v2 1.1.0): `GET /markets`,
 * `/markets/{condition_id}`, `/simplified-markets`, `/sampling-markets`,
 * `/sampling-simplified-markets`, `/markets/live-activity/{condition_id}`, and the markets'
 * liquidity rewards (`/rewards/markets/current`, `/rewards/markets/{condition_id}`).
 *
 * The markets are the catalog's (state.ts hands them over): the same condition ids, questions and
 * slugs Gamma serves, with the outcome ids the CLOB trades by for the market's version (v1:
 * clobTokenIds, v2: positionIds). Prices, tick size, minimum size and neg risk are the fake
 * CLOB's own answers for those ids (trading.ts), so `/markets`, `/book` and `/midpoint` agree.
 *
 * Shapes: Polymarket's documented `Market` (docs.polymarket.com api-reference/markets,
 * get-sampling-markets: `{limit, next_cursor, count, data}`), the simplified one clob-client-v2
 * reads, and its MarketTradeEvent and MarketReward types. Paging: `next_cursor` is base64 of the
 * next offset, `""` or `MA==` start, `LTE=` ends; the page size (default 1000) is the fake's choice,
 * as the CLOB's was not captured. "Sampling" markets are the open ones with liquidity rewards
 * (`rewardsMaxSpread` > 0 in the catalog), as the docs describe them.
 */
import { createHash } from 'node:crypto';
import { END_CURSOR } from './clob.ts';

/** The collateral the 2026 exchanges settle in (@polymarket/client 0.2.0's production `collateralToken`). */
export const COLLATERAL = '0xC011a7E12a19f7B1f670d46F03B03f3342E82DFB';

/** What the catalog tells the CLOB about one market (state.ts builds these). */
export interface ClobMarketSource {
  conditionId: string;
  questionId: string;
  question: string;
  description: string;
  slug: string;
  eventSlug: string;
  endDate: string | null;
  active: boolean;
  closed: boolean;
  archived: boolean;
  acceptingOrders: boolean;
  acceptingOrdersTimestamp: string | null;
  enableOrderBook: boolean;
  icon: string;
  image: string;
  negRiskMarketId: string;
  negRiskRequestId: string;
  rewardsMinSize: number;
  rewardsMaxSpread: number;
  /** The ids the CLOB trades by, with their outcome names. */
  tokens: { id: string; outcome: string }[];
}

/** The fake CLOB's own view of a token (trading.ts): what its book answers. */
export interface TokenQuotes {
  price(token: string): number;
  tickSize(token: string): number;
  minOrderSize(token: string): number;
  negRisk(token: string): boolean;
}

export interface Reply {
  status: number;
  body: string;
}

type Kind = 'markets' | 'simplified' | 'sampling' | 'sampling-simplified';

const json = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value) });
export const MARKET_NOT_FOUND = 'market not found';

/** An offset from a cursor: `""`/absent/`MA==` start; null for `LTE=` (past the end); undefined when malformed. */
export function cursorOffset(cursor: string | null): number | null | undefined {
  if (cursor === null || cursor === '') return 0;
  if (cursor === END_CURSOR) return null;
  const text = /^[A-Za-z0-9+/]{2,40}={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

/** One `{data, next_cursor, limit, count}` page of `all` from `cursor`. */
export function pageOf<T>(all: readonly T[], cursor: string | null, size: number): Reply {
  const offset = cursorOffset(cursor);
  if (offset === undefined) return json(400, { error: 'invalid next_cursor' });
  if (offset === null) return json(200, { data: [], next_cursor: END_CURSOR, limit: size, count: 0 });
  const data = all.slice(offset, offset + size);
  const end = offset + size >= all.length;
  return json(200, {
    data,
    next_cursor: end ? END_CURSOR : Buffer.from(String(offset + size)).toString('base64'),
    limit: size,
    count: data.length,
  });
}

const hex = (label: string) => `0x${createHash('sha256').update(label).digest('hex')}`;

export class FakeClobMarkets {
  constructor(
    private readonly source: () => readonly ClobMarketSource[],
    private readonly quotes: TokenQuotes,
    private readonly pageSize = 1000,
    private readonly nowMs: () => number = Date.now,
  ) {}

  /** The catalog's market with this condition id (case-insensitive). */
  byCondition(conditionId: string): ClobMarketSource | undefined {
    const c = conditionId.toLowerCase();
    return this.source().find((m) => m.conditionId.toLowerCase() === c);
  }

  /** Markets as `GET /markets` lists them, in catalog order. */
  markets(): Record<string, unknown>[] {
    return this.source().map((m) => this.market(m));
  }

  /** The open markets with liquidity rewards. */
  sampling(): ClobMarketSource[] {
    return this.source().filter((m) => !m.closed && !m.archived && m.rewardsMaxSpread > 0);
  }

  page(kind: Kind, cursor: string | null): Reply {
    const sampled = kind === 'sampling' || kind === 'sampling-simplified';
    const list = sampled ? this.sampling() : this.source();
    const simple = kind === 'simplified' || kind === 'sampling-simplified';
    return pageOf(
      list.map((m) => (simple ? this.simplified(m) : this.market(m))),
      cursor,
      this.pageSize,
    );
  }

  one(conditionId: string): Reply {
    const m = this.byCondition(conditionId);
    return m ? json(200, this.market(m)) : json(404, { error: MARKET_NOT_FOUND });
  }

  /** The market's latest trades, newest first: three made-up fills, derived from the market and its prices. */
  liveActivity(conditionId: string): Reply {
    const m = this.byCondition(conditionId);
    if (!m) return json(404, { error: MARKET_NOT_FOUND });
    const nowS = Math.floor(this.nowMs() / 1000);
    const events = m.tokens.length === 0 ? [] : [0, 1, 2].map((i) => this.tradeEvent(m, i, nowS));
    return json(200, events);
  }

  /** `/rewards/markets/current`: every market with rewards running. */
  currentRewards(cursor: string | null): Reply {
    return pageOf(
      this.sampling().map((m) => this.reward(m)),
      cursor,
      this.pageSize,
    );
  }

  /** `/rewards/markets/{condition_id}`: the market's rewards (an empty page when it has none). */
  marketRewards(conditionId: string, cursor: string | null): Reply {
    const m = this.byCondition(conditionId);
    if (!m) return json(404, { error: MARKET_NOT_FOUND });
    return pageOf(m.rewardsMaxSpread > 0 && !m.closed ? [this.reward(m)] : [], cursor, this.pageSize);
  }

  /** A market's reward config (one program: the collateral, from the market's start to its end). */
  reward(m: ClobMarketSource): Record<string, unknown> {
    return {
      condition_id: m.conditionId,
      question: m.question,
      market_slug: m.slug,
      event_slug: m.eventSlug,
      image: m.image,
      rewards_max_spread: m.rewardsMaxSpread,
      rewards_min_size: m.rewardsMinSize,
      tokens: m.tokens.map((t) => ({ token_id: t.id, outcome: t.outcome, price: this.quotes.price(t.id) })),
      rewards_config: [
        {
          asset_address: COLLATERAL,
          start_date: '2026-10-01',
          end_date: (m.endDate ?? '2500-12-31').slice(0, 10),
          rate_per_day: this.dailyRate(m),
          total_rewards: 0,
        },
      ],
    };
  }

  /** A market's reward rate per day, whole dollars from its hash (made up). */
  dailyRate(m: ClobMarketSource): number {
    return 5 * (1 + (createHash('sha256').update(`rate:${m.conditionId}`).digest().readUInt8(0) % 20));
  }

  private rewards(m: ClobMarketSource): Record<string, unknown> {
    const on = m.rewardsMaxSpread > 0;
    return {
      rates: on ? [{ asset_address: COLLATERAL, rewards_daily_rate: this.dailyRate(m) }] : null,
      min_size: m.rewardsMinSize,
      max_spread: m.rewardsMaxSpread,
    };
  }

  private tokens(m: ClobMarketSource): Record<string, unknown>[] {
    return m.tokens.map((t) => {
      const price = this.quotes.price(t.id);
      return { token_id: t.id, outcome: t.outcome, price, winner: m.closed && price >= 0.5 };
    });
  }

  private simplified(m: ClobMarketSource): Record<string, unknown> {
    return {
      condition_id: m.conditionId,
      rewards: this.rewards(m),
      tokens: this.tokens(m),
      active: m.active,
      closed: m.closed,
      archived: m.archived,
      accepting_orders: m.acceptingOrders,
    };
  }

  private market(m: ClobMarketSource): Record<string, unknown> {
    const first = m.tokens[0]?.id;
    return {
      enable_order_book: m.enableOrderBook,
      active: m.active,
      closed: m.closed,
      archived: m.archived,
      accepting_orders: m.acceptingOrders,
      accepting_order_timestamp: m.acceptingOrdersTimestamp,
      minimum_order_size: first === undefined ? 5 : this.quotes.minOrderSize(first),
      minimum_tick_size: first === undefined ? 0.01 : this.quotes.tickSize(first),
      condition_id: m.conditionId,
      question_id: m.questionId,
      question: m.question,
      description: m.description,
      market_slug: m.slug,
      end_date_iso: m.endDate,
      game_start_time: null,
      seconds_delay: 0,
      fpmm: '',
      maker_base_fee: 0,
      taker_base_fee: 0,
      notifications_enabled: true,
      neg_risk: first === undefined ? false : this.quotes.negRisk(first),
      neg_risk_market_id: m.negRiskMarketId,
      neg_risk_request_id: m.negRiskRequestId,
      icon: m.icon,
      image: m.image,
      rewards: this.rewards(m),
      is_50_50_outcome: false,
      tokens: this.tokens(m),
      tags: [],
    };
  }

  private tradeEvent(m: ClobMarketSource, i: number, nowS: number): Record<string, unknown> {
    const t = m.tokens[i % m.tokens.length]!;
    const who = hex(`trader:${m.conditionId}:${i}`).slice(0, 42);
    return {
      event_type: 'trade',
      market: { condition_id: m.conditionId, asset_id: t.id, question: m.question, icon: m.icon, slug: m.slug },
      user: { address: who, username: '', profile_picture: '', optimized_profile_picture: '', pseudonym: `Trader-${who.slice(2, 8)}` },
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      size: String(10 * (i + 1)),
      fee_rate_bps: '0',
      price: String(this.quotes.price(t.id)),
      outcome: t.outcome,
      outcome_index: i % m.tokens.length,
      transaction_hash: hex(`live-activity:${m.conditionId}:${i}`),
      timestamp: String(nowS - 60 * (i + 1)),
    };
  }
}
