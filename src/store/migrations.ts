/**
 * The cache's shipped migrations, FROZEN. Each is the exact SQL text a released build ran to take
 * a cache file one schema version up (`PRAGMA user_version`), so a file it wrote has exactly the
 * schema these give. Never edit one, not even a comment or the field lists it was made from: a change
 * to the schema is a NEW migration appended to MIGRATIONS (an `ALTER TABLE … ADD COLUMN` for a field
 * added to contract/catalog-fields.ts). migrations.test.ts holds each text to its digest, and the
 * tables they make to the field lists.
 *
 * Plain text, not built from constants (a constant edited for new code would silently change an old
 * migration). A `\` at a line's end only wraps a long line here: the text has no line break there.
 */

/**
 * v1: the catalog's tables (markets, events, tags, series and their links) and `meta`, with a column for each field
 * of the lists as they were then (contract/catalog-fields.ts). The sort and lookup indexes are no migration (schema.ts
 * ENTITY_INDEXES).
 */
const V1_CATALOG = `
CREATE TABLE markets (
  id INTEGER PRIMARY KEY,
  "question" TEXT,
  "conditionId" TEXT,
  "slug" TEXT,
  "resolutionSource" TEXT,
  "endDate" TEXT,
  "category" TEXT,
  "liquidity" TEXT,
  "startDate" TEXT,
  "image" TEXT,
  "icon" TEXT,
  "description" TEXT,
  "outcomes" TEXT,
  "outcomePrices" TEXT,
  "volume" TEXT,
  "active" INTEGER,
  "closed" INTEGER,
  "marketMakerAddress" TEXT,
  "createdAt" TEXT,
  "updatedAt" TEXT,
  "closedTime" TEXT,
  "new" INTEGER,
  "featured" INTEGER,
  "submitted_by" TEXT,
  "creator" TEXT,
  "archived" INTEGER,
  "resolvedBy" TEXT,
  "restricted" INTEGER,
  "groupItemTitle" TEXT,
  "groupItemThreshold" TEXT,
  "questionID" TEXT,
  "enableOrderBook" INTEGER,
  "orderPriceMinTickSize" REAL,
  "orderMinSize" REAL,
  "volumeNum" REAL,
  "liquidityNum" REAL,
  "endDateIso" TEXT,
  "startDateIso" TEXT,
  "volume24hr" REAL,
  "volume1wk" REAL,
  "volume1mo" REAL,
  "volume1yr" REAL,
  "clobTokenIds" TEXT,
  "umaBond" TEXT,
  "umaReward" TEXT,
  "volumeClob" REAL,
  "liquidityClob" REAL,
  "acceptingOrders" INTEGER,
  "negRisk" INTEGER,
  "negRiskMarketID" TEXT,
  "competitive" REAL,
  "spread" REAL,
  "oneDayPriceChange" REAL,
  "oneHourPriceChange" REAL,
  "oneWeekPriceChange" REAL,
  "oneMonthPriceChange" REAL,
  "lastTradePrice" REAL,
  "bestBid" REAL,
  "bestAsk" REAL,
  "umaResolutionStatus" TEXT,
  "umaResolutionStatuses" TEXT,
  "sportsMarketType" TEXT,
  "line" REAL,
  "gameId" TEXT,
  _extra TEXT,
  -- Sort and filter keys derived from the fields: numbers for money that Gamma sends as
  -- strings, epoch milliseconds for the several timestamp formats, lower-cased lookups.
  _volume REAL, _liquidity REAL,
  _start_ts INTEGER, _end_ts INTEGER, _created_ts INTEGER, _updated_ts INTEGER, _closed_ts INTEGER,
  _condition_lc TEXT, _creator_lc TEXT
);

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  "ticker" TEXT,
  "slug" TEXT,
  "title" TEXT,
  "description" TEXT,
  "resolutionSource" TEXT,
  "startDate" TEXT,
  "creationDate" TEXT,
  "endDate" TEXT,
  "image" TEXT,
  "icon" TEXT,
  "active" INTEGER,
  "closed" INTEGER,
  "archived" INTEGER,
  "new" INTEGER,
  "featured" INTEGER,
  "restricted" INTEGER,
  "liquidity" REAL,
  "volume" REAL,
  "openInterest" REAL,
  "createdAt" TEXT,
  "updatedAt" TEXT,
  "closedTime" TEXT,
  "competitive" REAL,
  "volume24hr" REAL,
  "volume1wk" REAL,
  "volume1mo" REAL,
  "volume1yr" REAL,
  "enableOrderBook" INTEGER,
  "liquidityClob" REAL,
  "negRisk" INTEGER,
  "negRiskMarketID" TEXT,
  "commentCount" REAL,
  "seriesSlug" TEXT,
  "creator" TEXT,
  _extra TEXT,
  _start_ts INTEGER, _end_ts INTEGER, _created_ts INTEGER, _updated_ts INTEGER, _closed_ts INTEGER,
  _slug_lc TEXT, _creator_lc TEXT
);

CREATE TABLE market_events (
  market_id INTEGER NOT NULL,
  event_id INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (market_id, event_id)
) WITHOUT ROWID;
CREATE INDEX market_events_by_event ON market_events(event_id, position, market_id);

CREATE TABLE tags (
  id INTEGER PRIMARY KEY,
  "label" TEXT,
  "slug" TEXT,
  "forceShow" INTEGER,
  "forceHide" INTEGER,
  "isCarousel" INTEGER,
  "publishedAt" TEXT,
  "createdAt" TEXT,
  "updatedAt" TEXT,
  "requiresTranslation" INTEGER,
  _extra TEXT,
  _slug_lc TEXT
);
CREATE INDEX tags_slug ON tags(_slug_lc);

CREATE TABLE event_tags (
  event_id INTEGER NOT NULL,
  tag_id INTEGER NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (event_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX event_tags_by_tag ON event_tags(tag_id, event_id);

-- Denormalised: a market carries the tags of its events (docs/architecture.md, "The cache on disk"). Kept in step by the writer.
CREATE TABLE market_tags (
  tag_id INTEGER NOT NULL,
  market_id INTEGER NOT NULL,
  PRIMARY KEY (tag_id, market_id)
) WITHOUT ROWID;
CREATE INDEX market_tags_by_market ON market_tags(market_id, tag_id);

CREATE TABLE series (
  id INTEGER PRIMARY KEY,
  "ticker" TEXT,
  "slug" TEXT,
  "title" TEXT,
  "seriesType" TEXT,
  "recurrence" TEXT,
  "image" TEXT,
  "icon" TEXT,
  "active" INTEGER,
  "closed" INTEGER,
  "archived" INTEGER,
  "createdAt" TEXT,
  "updatedAt" TEXT,
  _extra TEXT,
  _slug_lc TEXT
);
CREATE INDEX series_slug ON series(_slug_lc);

CREATE TABLE event_series (
  event_id INTEGER NOT NULL,
  series_id INTEGER NOT NULL,
  PRIMARY KEY (event_id, series_id)
) WITHOUT ROWID;
CREATE INDEX event_series_by_series ON event_series(series_id, event_id);

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
`;

/**
 * v2: the full-text search (search-index.ts): the documents view, the event index, its bookkeeping and the tag index with
 * its triggers. The event documents are built by ensureSearchIndex right after the migrations (their triggers live
 * outside the migrations, like the entity indexes, because a bulk load drops them), so a v1 cache comes back searchable.
 */
const V2_SEARCH = `

CREATE VIEW search_docs AS SELECT
  e.id AS rowid,
  coalesce(e."title", '') AS title,
  coalesce(e."ticker", '') || ' ' || coalesce(e."slug", '') AS keys,
  coalesce((SELECT group_concat(m."question", ' ') FROM market_events me JOIN markets m ON m.id = me.market_id WHERE me.event_id\
 = e.id), '') AS questions,
  coalesce(e."description", '') AS description,
  coalesce((SELECT group_concat(m."description", ' ') FROM market_events me JOIN markets m ON m.id = me.market_id WHERE\
 me.event_id = e.id), '') AS details
FROM events e;
CREATE VIRTUAL TABLE search_fts USING fts4(content="search_docs", title, keys, questions, description, details,\
 tokenize=unicode61 "remove_diacritics=2", prefix="1");
-- Events whose document was taken out of the index in the current write transaction.
CREATE TABLE search_dirty (id INTEGER PRIMARY KEY);
-- The tie-break key of every event, narrow: ranking 40,000 matches reads this (~1 MB) instead
-- of the wide events rows (measured: 8 ms instead of 60 ms at 100k markets).
CREATE TABLE search_order (id INTEGER PRIMARY KEY, volume REAL);
CREATE VIRTUAL TABLE tag_fts USING fts4(label, slug, tokenize=unicode61 "remove_diacritics=2", prefix="1");
CREATE TRIGGER search_tags_ins AFTER INSERT ON tags BEGIN DELETE FROM tag_fts WHERE docid = NEW.id; INSERT INTO tag_fts (docid,\
 label, slug) VALUES (NEW.id, coalesce(NEW."label", ''), coalesce(NEW."slug", '')); END;
CREATE TRIGGER search_tags_upd AFTER UPDATE ON tags BEGIN DELETE FROM tag_fts WHERE docid = OLD.id; DELETE FROM tag_fts WHERE\
 docid = NEW.id; INSERT INTO tag_fts (docid, label, slug) VALUES (NEW.id, coalesce(NEW."label", ''), coalesce(NEW."slug", '')); END;
CREATE TRIGGER search_tags_del AFTER DELETE ON tags BEGIN DELETE FROM tag_fts WHERE docid = OLD.id; END;
INSERT INTO tag_fts (docid, label, slug) SELECT id, coalesce("label", ''), coalesce("slug", '') FROM tags;
`;

/** v3: the open orders (orders-store.ts) and the leaderboards (leaderboard-store.ts). */
const V3_ORDERS_LEADERBOARDS = `
CREATE TABLE orders (
  account TEXT NOT NULL,
  id TEXT NOT NULL,
  -- The upstream's order, so paging is stable between refreshes.
  position INTEGER NOT NULL,
  status TEXT NOT NULL, market TEXT NOT NULL, asset_id TEXT NOT NULL, outcome TEXT NOT NULL,
  maker_address TEXT NOT NULL, owner TEXT NOT NULL, price TEXT NOT NULL, original_size TEXT NOT NULL,
  size_matched TEXT NOT NULL, side TEXT NOT NULL, type TEXT NOT NULL,
  associate_trades TEXT NOT NULL,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL,
  _id_lc TEXT NOT NULL, _market_lc TEXT NOT NULL,
  PRIMARY KEY (account, id)
) WITHOUT ROWID;
CREATE INDEX orders_by_position ON orders(account, position);
CREATE TABLE orders_fetches (account TEXT PRIMARY KEY, fetched_at INTEGER NOT NULL) WITHOUT ROWID;

CREATE TABLE leaderboard_boards (
  category TEXT NOT NULL, period TEXT NOT NULL, order_by TEXT NOT NULL,
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (category, period, order_by)
) WITHOUT ROWID;
CREATE TABLE leaderboard_entries (
  category TEXT NOT NULL, period TEXT NOT NULL, order_by TEXT NOT NULL,
  position INTEGER NOT NULL,
  rank TEXT NOT NULL, proxy_wallet TEXT NOT NULL, user_name TEXT NOT NULL,
  vol REAL NOT NULL, pnl REAL NOT NULL, profile_image TEXT NOT NULL,
  -- JSON: the spec leaves their types open, so they come back exactly as received.
  x_username TEXT NOT NULL, verified_badge TEXT NOT NULL,
  _wallet_lc TEXT NOT NULL, _name_lc TEXT NOT NULL,
  PRIMARY KEY (category, period, order_by, position)
) WITHOUT ROWID;
`;

/** v4: orders keep the upstream's `expiration`, which Polymarket's dialect serves. */
const V4_ORDER_EXPIRATION = `ALTER TABLE orders ADD COLUMN expiration TEXT NOT NULL DEFAULT '0';`;

/** v5: a market page's chart and book, as last fetched (market-page-cache.ts; issue 13). */
const V5_MARKET_PAGES = `
CREATE TABLE market_page_cache (
  kind TEXT NOT NULL,
  market_id INTEGER NOT NULL,
  -- The chart's interval; '' for a book.
  variant TEXT NOT NULL,
  fetched_at INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (kind, market_id, variant)
) WITHOUT ROWID;
`;

/** v6: price history, revisions and the change feed (history-schema.ts; issue 16). */
const V6_HISTORY = `
CREATE TABLE market_history (
  market_id INTEGER NOT NULL,
  ts INTEGER NOT NULL,
  price INTEGER, bid INTEGER, ask INTEGER, last INTEGER, vol24 INTEGER, liq INTEGER,
  PRIMARY KEY (market_id, ts)
) WITHOUT ROWID;

-- entity: 0 market, 1 event. One row per edited field; before/after as stored (tags: JSON slugs).
CREATE TABLE revisions (
  seq INTEGER PRIMARY KEY,
  entity INTEGER NOT NULL, ref_id INTEGER NOT NULL, at INTEGER NOT NULL,
  field TEXT NOT NULL, before TEXT, after TEXT
);
CREATE INDEX revisions_by_ref ON revisions(entity, ref_id);

-- before/after are JSON texts.
CREATE TABLE changes (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL, kind TEXT NOT NULL,
  entity INTEGER NOT NULL, ref_id INTEGER NOT NULL,
  before TEXT, after TEXT
);
CREATE INDEX changes_at_kind ON changes(at, kind);

-- The last price (kind 0) or liquidity (kind 1) move reported per market: the next one is measured from it.
CREATE TABLE move_refs (
  market_id INTEGER NOT NULL, kind INTEGER NOT NULL, at INTEGER NOT NULL, value INTEGER,
  PRIMARY KEY (market_id, kind)
) WITHOUT ROWID;
`;

/**
 * v7: Polymarket 2026's market and event fields (issue 25): the protocol `version` that chooses an outcome's trading ids,
 * `positionIds` (JSON), the fee, combo and RFQ fields, and an event's `eventMetadata` (JSON).
 */
const V7_PROTOCOL_FIELDS = `
ALTER TABLE markets ADD COLUMN "positionIds" TEXT;
ALTER TABLE markets ADD COLUMN "comboStatus" TEXT;
ALTER TABLE markets ADD COLUMN "rfqEnabled" INTEGER;
ALTER TABLE markets ADD COLUMN "holdingRewardsEnabled" INTEGER;
ALTER TABLE markets ADD COLUMN "feesEnabled" INTEGER;
ALTER TABLE markets ADD COLUMN "feeType" TEXT;
ALTER TABLE markets ADD COLUMN "feeSchedule" TEXT;
ALTER TABLE markets ADD COLUMN "version" TEXT;
ALTER TABLE events ADD COLUMN "eventMetadata" TEXT;
ALTER TABLE events ADD COLUMN "version" TEXT;
`;

/**
 * v8 (issue 25): the wrong trading ids (trading-id-index.ts: each id a market names in the field its `version` does not
 * trade by, keyed by a 53-bit hash of the id, with its market), filled from the cached markets right after this text
 * runs, in the same transaction (schema.ts AFTER_MIGRATION); and the 2026 market fields still dropped before:
 * `makerBaseFee`, `takerBaseFee`, `deployingTimestamp`.
 */
const V8_WRONG_TRADING_IDS = `
-- h: a 53-bit hash of the id's text (the rowid: one compact B-tree); market: the market that names it.
CREATE TABLE wrong_trading_ids (h INTEGER PRIMARY KEY, market INTEGER NOT NULL);
ALTER TABLE markets ADD COLUMN "makerBaseFee" REAL;
ALTER TABLE markets ADD COLUMN "takerBaseFee" REAL;
ALTER TABLE markets ADD COLUMN "deployingTimestamp" TEXT;
`;

/**
 * v9 (issue 27): the sort keys of the "what moved" orders. A market's `_chance` (market-rules.ts marketLeader: a Yes/No
 * market's Yes price) and `_change_size` (|oneDayPriceChange|); an event's leader's chance, 24h change and its size
 * (`_chance`, `_change`, `_change_size`: eventLeader, eventLeaderChange). The writer keeps them (catalog-writer.ts); the
 * cached rows are filled right after this text runs, in the same transaction (schema.ts AFTER_MIGRATION).
 */
const V9_MOVE_KEYS = `
ALTER TABLE markets ADD COLUMN _chance REAL;
ALTER TABLE markets ADD COLUMN _change_size REAL;
ALTER TABLE events ADD COLUMN _chance REAL;
ALTER TABLE events ADD COLUMN _change REAL;
ALTER TABLE events ADD COLUMN _change_size REAL;
`;

/** MIGRATIONS[i] takes the schema from version i to i + 1. Append only. */
export const MIGRATIONS: readonly string[] = [
  V1_CATALOG,
  V2_SEARCH,
  V3_ORDERS_LEADERBOARDS,
  V4_ORDER_EXPIRATION,
  V5_MARKET_PAGES,
  V6_HISTORY,
  V7_PROTOCOL_FIELDS,
  V8_WRONG_TRADING_IDS,
  V9_MOVE_KEYS,
];
