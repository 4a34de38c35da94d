/**
 * The catalog's fields, written once: each upstream Gamma key the cache keeps (one column each)
 * and the JSON type of its value, in Gamma's live key order (the order a served object has).
 * The served shapes (types.ts `Market`, `Event`, `EventTag`; gamma-extra-ops.ts `Series`) and the
 * upstream's (gamma.ts) take their typed fields from these lists; src/store/fields.ts makes the
 * columns of them, and src/store/migrations.test.ts checks the cache's tables hold exactly these.
 * A field added here needs a new migration (src/store/migrations.ts): the shipped ones are frozen.
 *
 * A value of another JSON type (an explicit null, a number sent as a string) is still kept and
 * served as it came (the row's `_extra`), so the types below say what Gamma normally sends.
 * Plain constants: the renderer may import this module at run time.
 */

/**
 * `text` a string, `num` a finite number, `bool` a boolean, `json` any JSON value (an array or an
 * object, e.g. `positionIds`, `feeSchedule`), kept as its JSON text and served back as it came.
 */
export type FieldKind = 'text' | 'num' | 'bool' | 'json';

/** The TypeScript type of each kind's values. */
export interface FieldKindValue {
  text: string;
  num: number;
  bool: boolean;
  json: unknown;
}

/** The optional fields a field list describes (none is sent always: Gamma leaves out empty values). */
export type FieldValues<F extends Readonly<Record<string, FieldKind>>> = { -readonly [K in keyof F]?: FieldKindValue[F[K]] };

/** Markets: spec 2.1 plus prices, money and trading fields. */
export const MARKET_FIELD_KINDS = {
  question: 'text',
  conditionId: 'text',
  slug: 'text',
  resolutionSource: 'text',
  endDate: 'text',
  category: 'text',
  liquidity: 'text',
  startDate: 'text',
  image: 'text',
  icon: 'text',
  description: 'text',
  outcomes: 'text',
  outcomePrices: 'text',
  volume: 'text',
  active: 'bool',
  closed: 'bool',
  marketMakerAddress: 'text',
  createdAt: 'text',
  updatedAt: 'text',
  closedTime: 'text',
  new: 'bool',
  featured: 'bool',
  submitted_by: 'text',
  creator: 'text',
  archived: 'bool',
  resolvedBy: 'text',
  restricted: 'bool',
  groupItemTitle: 'text',
  groupItemThreshold: 'text',
  questionID: 'text',
  enableOrderBook: 'bool',
  orderPriceMinTickSize: 'num',
  orderMinSize: 'num',
  volumeNum: 'num',
  liquidityNum: 'num',
  endDateIso: 'text',
  startDateIso: 'text',
  volume24hr: 'num',
  volume1wk: 'num',
  volume1mo: 'num',
  volume1yr: 'num',
  clobTokenIds: 'text',
  umaBond: 'text',
  umaReward: 'text',
  volumeClob: 'num',
  liquidityClob: 'num',
  // Polymarket 2026 (added by migration v8), where Gamma sends them: after liquidityClob.
  makerBaseFee: 'num',
  takerBaseFee: 'num',
  acceptingOrders: 'bool',
  negRisk: 'bool',
  negRiskMarketID: 'text',
  competitive: 'num',
  spread: 'num',
  oneDayPriceChange: 'num',
  oneHourPriceChange: 'num',
  oneWeekPriceChange: 'num',
  oneMonthPriceChange: 'num',
  lastTradePrice: 'num',
  bestBid: 'num',
  bestAsk: 'num',
  umaResolutionStatus: 'text',
  umaResolutionStatuses: 'text',
  sportsMarketType: 'text',
  line: 'num',
  gameId: 'text',
  // Polymarket 2026 (issue 25; added by migration v7). `version` chooses the outcomes' trading ids
  // (contract/market-rules.ts tradingIds): "v2" `positionIds` (a JSON array), "v1" `clobTokenIds`.
  positionIds: 'json',
  comboStatus: 'text',
  // Migration v8; Gamma sends it just before rfqEnabled.
  deployingTimestamp: 'text',
  rfqEnabled: 'bool',
  holdingRewardsEnabled: 'bool',
  feesEnabled: 'bool',
  feeType: 'text',
  feeSchedule: 'json',
  version: 'text',
} as const satisfies Record<string, FieldKind>;

/** Events: spec 2.2 plus money fields (numbers on events, unlike markets). */
export const EVENT_FIELD_KINDS = {
  ticker: 'text',
  slug: 'text',
  title: 'text',
  description: 'text',
  resolutionSource: 'text',
  startDate: 'text',
  creationDate: 'text',
  endDate: 'text',
  image: 'text',
  icon: 'text',
  active: 'bool',
  closed: 'bool',
  archived: 'bool',
  new: 'bool',
  featured: 'bool',
  restricted: 'bool',
  liquidity: 'num',
  volume: 'num',
  openInterest: 'num',
  createdAt: 'text',
  updatedAt: 'text',
  closedTime: 'text',
  competitive: 'num',
  volume24hr: 'num',
  volume1wk: 'num',
  volume1mo: 'num',
  volume1yr: 'num',
  enableOrderBook: 'bool',
  liquidityClob: 'num',
  negRisk: 'bool',
  negRiskMarketID: 'text',
  commentCount: 'num',
  seriesSlug: 'text',
  creator: 'text',
  // Polymarket 2026 (issue 25; added by migration v7).
  eventMetadata: 'json',
  version: 'text',
} as const satisfies Record<string, FieldKind>;

/** Tags, as `/tags` and an event's `tags` carry them. */
export const TAG_FIELD_KINDS = {
  label: 'text',
  slug: 'text',
  forceShow: 'bool',
  forceHide: 'bool',
  isCarousel: 'bool',
  publishedAt: 'text',
  createdAt: 'text',
  updatedAt: 'text',
  requiresTranslation: 'bool',
} as const satisfies Record<string, FieldKind>;

/** Series, as an event's `series` and `/series` carry them. */
export const SERIES_FIELD_KINDS = {
  ticker: 'text',
  slug: 'text',
  title: 'text',
  seriesType: 'text',
  recurrence: 'text',
  image: 'text',
  icon: 'text',
  active: 'bool',
  closed: 'bool',
  archived: 'bool',
  createdAt: 'text',
  updatedAt: 'text',
} as const satisfies Record<string, FieldKind>;

/** A market's fields; `outcomePrices` may also be an explicit null from Gamma (kept and served as null). */
export type MarketFields = Omit<FieldValues<typeof MARKET_FIELD_KINDS>, 'outcomePrices'> & { outcomePrices?: string | null };
export type EventFields = FieldValues<typeof EVENT_FIELD_KINDS>;
export type TagFields = FieldValues<typeof TAG_FIELD_KINDS>;
export type SeriesFields = FieldValues<typeof SERIES_FIELD_KINDS>;

/** A catalog object with the fields `F`: its id, those fields typed, and any other key as sent. */
export type CatalogRecord<F> = F & { id: string; [key: string]: unknown };
