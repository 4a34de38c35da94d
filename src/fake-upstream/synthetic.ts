/**
 * Seeded synthetic Gamma catalog. Shapes, key order and wire types copy the real fixtures
 * (fixtures/gamma): ids are digit strings, `outcomes`/`outcomePrices`/`clobTokenIds` are
 * JSON-encoded strings, market `volume`/`liquidity` are strings, event money is numeric, and
 * zero/empty values are left out the way the real API leaves them out.
 */
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from '../contract/gamma.ts';
import { gaussian, mulberry32, pick, randDigits, randHex, randInt, zipfSampler, type Rng } from './prng.ts';
import { eventDescription, marketDescription, properName, slugify, textLength } from './text.ts';
import { frameEvent, pickTopic, seriesSpecs, PLACES, COINS, LEAGUES, type EventFrame } from './topics.ts';
import { isoDate, isoMicros, isoSeconds, spaceMillis, spaceSeconds } from './time-format.ts';

export interface GenerateOptions {
  markets: number;
  seed?: number;
  /** Reference "now" in ms. Defaults to a fixed instant so the same seed always gives the same bytes. */
  now?: number;
}

export interface SyntheticCatalog {
  events: GammaEvent[];
  /** The same objects that sit in `events[].markets` (no `events` key: the catalog adds it when serving). */
  markets: GammaMarket[];
  tags: GammaTag[];
  series: GammaSeries[];
}

export const DEFAULT_NOW = Date.UTC(2026, 10, 1, 0, 0, 0);

const DAY = 86_400_000;
const S3 = 'https://polymarket-upload.s3.us-east-2.amazonaws.com/';
/** The most common real `submitted_by` (public on-chain address); the rest are generated. */
const REAL_CREATOR = '0x91430CaD2d3975766499717fA0D66A78D814E5c5';
const RESOLVERS = [
  '0x6A9D222616C90FcA5754cd1333cFD9b7fb6a4F74',
  '0x2F5e3684cb1F318ec51b00Edba38d79Ac2c0aA9d',
  '0x65070BE91477460D8A7AeEb94ef92fe056C2f2A7',
];
const RESOLUTION_SOURCES = [
  'https://www.coinbase.com/',
  'https://www.binance.com/',
  'https://www.espn.com/',
  'https://www.federalreserve.gov/',
  'https://www.boxofficemojo.com/',
];
/** Markets per event 1..10 with mean 2.5 (real: mean 2.9, median 1). */
const MARKETS_PER_EVENT = [0.53, 0.155, 0.09, 0.06, 0.045, 0.035, 0.025, 0.02, 0.02, 0.02];
const TAGS_PER_EVENT = [0.2, 0.35, 0.3, 0.15];
const CATEGORY_TAGS = [
  'Politics',
  'Crypto',
  'Sports',
  'Economy',
  'Tech',
  'Culture',
  'World',
  'Elections',
  'Crypto Prices',
  'Games',
  'Fed',
  'Central Banks',
  'Interest Rates',
  'AI',
  'Pop Culture',
  'Movies',
  'Awards',
  'Geopolitics',
];

function weighted(rng: Rng, weights: readonly number[]): number {
  let r = rng();
  for (let i = 0; i < weights.length; i++) {
    r -= weights[i] as number;
    if (r < 0) return i;
  }
  return weights.length - 1;
}

/** Money amounts are log-normal; rounded to 5-6 decimals like the real strings ("1067832.94112"). */
function logNormal(rng: Rng, mu: number, sigma: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(Math.exp(mu + sigma * gaussian(rng)) * f) / f;
}

function base62(rng: Rng, n: number): string {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < n; i++) s += A[Math.floor(rng() * 62)];
  return s;
}

function noonUtc(ms: number): number {
  return Math.floor(ms / DAY) * DAY + 12 * 3_600_000;
}

function priceText(thousandths: number): string {
  return String(thousandths / 1000);
}

function buildTags(rng: Rng, now: number): GammaTag[] {
  const labels = [
    ...CATEGORY_TAGS,
    ...PLACES,
    ...COINS,
    ...LEAGUES,
    'OpenAI',
    'Google',
    'Anthropic',
    'Meta',
    'xAI',
    'Mistral',
    'Apple',
    'Nvidia',
    'Bank of England',
    'Bank of Japan',
    'ECB',
  ];
  const seen = new Set(labels.map((l) => slugify(l)));
  while (labels.length < 320) {
    const l = rng() < 0.5 ? `${properName(rng)} ${properName(rng)}` : properName(rng).toLowerCase();
    const s = slugify(l);
    if (!s || seen.has(s)) continue;
    seen.add(s);
    labels.push(l);
  }
  // Two id ranges like the real ones: legacy 1..~1600 and 100000+.
  const ids = new Set<number>();
  const out: GammaTag[] = [];
  for (let i = 0; i < labels.length; i++) {
    let id: number;
    do id = i < 120 || rng() < 0.3 ? randInt(rng, 1, 1600) : randInt(rng, 100_000, 103_500);
    while (ids.has(id));
    ids.add(id);
    const created = now - randInt(rng, 30, 1000) * DAY - randInt(rng, 0, DAY - 1);
    const tag: GammaTag = { id: String(id), label: labels[i] as string, slug: slugify(labels[i] as string) };
    if (rng() < 0.1) tag.forceShow = rng() < 0.5;
    if (id < 100_000) tag.publishedAt = spaceMillis(created - randInt(rng, 10, 500));
    tag.createdAt = isoMicros(created * 1000 + randInt(rng, 0, 999));
    if (rng() < 0.9) tag.updatedAt = isoMicros((created + randInt(rng, 0, 20) * DAY) * 1000 + randInt(rng, 0, 999));
    if (rng() < 0.8) tag.requiresTranslation = false;
    out.push(tag);
  }
  out.sort((a, b) => Number(a.id) - Number(b.id));
  return out;
}

interface Ctx {
  rng: Rng;
  now: number;
  creators: string[];
  creatorRank: (rng: Rng) => number;
  marketSlugs: Set<string>;
  /** updatedAt of the market built last, in ms (saves re-parsing the string). */
  lastUpdatedMs: number;
}

type Status = 'open' | 'closed' | 'archived' | 'inactive';

interface MarketArgs {
  id: number;
  frame: EventFrame['markets'][number];
  index: number;
  group: boolean;
  status: Status;
  createdMs: number;
  endMs: number;
  closedMs: number;
  image: string;
  negRiskMarketID: string | undefined;
}

/**
 * One market, keys in the order the real `/markets` objects use. A class only so that V8 sizes
 * the object for all its fields up front (it counts the `this.x =` stores in the constructor);
 * a `{}` literal regrows its property store ~20 times per market. Instances are plain data,
 * JSON-identical to object literals.
 */
class SynthMarket {
  [key: string]: unknown;
  constructor(c: Ctx, a: MarketArgs) {
    const { rng, now } = c;
    const { status, frame, createdMs, endMs, closedMs } = a;
    const idStr = String(a.id);
    let slug = slugify(frame.question);
    if (!slug || c.marketSlugs.has(slug)) slug = [slug, idStr].join('-');
    c.marketSlugs.add(slug);
    const closed = status === 'closed' || status === 'archived';
    const open = status === 'open';
    const tick = rng() < 0.7 ? 0.01 : 0.001;
    const startMs = createdMs + randInt(rng, 1_000, 1_200_000);
    const volumeNum = status === 'inactive' || rng() < 0.05 ? 0 : logNormal(rng, 7.5, 2.2, 6);
    const liquidityNum = open ? logNormal(rng, 7, 1.8, 5) : status === 'inactive' ? logNormal(rng, 3, 1, 5) : 0;
    // Resolved markets carry "1"/"0"; unlaunched placeholders carry no prices at all.
    let p = randInt(rng, 1, 999);
    let outcomePrices: string | undefined;
    if (closed) {
      const yes = rng() < 0.5;
      outcomePrices = yes ? '["1", "0"]' : '["0", "1"]';
      p = yes ? 999 : 1;
    } else if (open) {
      outcomePrices = ['["', priceText(p), '", "', priceText(1000 - p), '"]'].join('');
    }
    const updatedMs = closed
      ? Math.min(now, closedMs + (status === 'archived' ? randInt(rng, DAY, 5 * DAY) : randInt(rng, 1_000, 7_200_000)))
      : Math.max(startMs, now - randInt(rng, 0, 3 * DAY));
    c.lastUpdatedMs = updatedMs;

    this.id = idStr;
    this.question = frame.question;
    this.conditionId = randHex(rng, 64, '0x');
    this.slug = slug;
    this.resolutionSource = rng() < 0.8 ? '' : pick(rng, RESOLUTION_SOURCES);
    this.endDate = isoSeconds(endMs);
    if (!closed) this.liquidity = String(liquidityNum);
    this.startDate = isoMicros(startMs * 1000 + randInt(rng, 0, 999));
    this.image = a.image;
    this.icon = a.image;
    this.description = marketDescription(rng, frame.clause, textLength(rng, 600, 200, 1800));
    this.outcomes = frame.outcomes;
    if (outcomePrices !== undefined) this.outcomePrices = outcomePrices;
    this.volume = String(volumeNum);
    this.active = status !== 'inactive';
    this.closed = closed;
    this.marketMakerAddress = '';
    this.createdAt = isoMicros(createdMs * 1000 + randInt(rng, 0, 999));
    this.updatedAt = isoMicros(updatedMs * 1000 + randInt(rng, 0, 999));
    if (closed) this.closedTime = spaceSeconds(closedMs);
    this.new = false;
    this.featured = false;
    this.submitted_by = c.creators[c.creatorRank(rng)];
    this.archived = status === 'archived';
    this.resolvedBy = pick(rng, RESOLVERS);
    this.restricted = true;
    this.groupItemTitle = frame.groupItemTitle;
    this.groupItemThreshold = a.group ? String(a.index) : '0';
    this.questionID = randHex(rng, 64, '0x');
    if (closed) this.umaEndDate = isoSeconds(closedMs);
    this.enableOrderBook = true;
    this.orderPriceMinTickSize = tick;
    this.orderMinSize = 5;
    if (closed) this.umaResolutionStatus = 'resolved';
    this.volumeNum = volumeNum;
    if (!closed) this.liquidityNum = liquidityNum;
    this.endDateIso = isoDate(endMs);
    this.startDateIso = isoDate(startMs);
    this.hasReviewedDates = true;
    let v24 = 0;
    if (open && volumeNum > 0 && rng() < 0.9) {
      v24 = Math.round(volumeNum * rng() * 0.1 * 1e6) / 1e6;
      if (v24 > 0) this.volume24hr = v24;
    }
    if (volumeNum > 0 && rng() < 0.97) {
      const wk = Math.max(v24, Math.round(volumeNum * (0.05 + rng() * 0.3) * 1e6) / 1e6);
      this.volume1wk = wk;
      this.volume1mo = Math.min(volumeNum, Math.round(wk * (1 + rng() * 3) * 1e6) / 1e6);
    }
    this.clobTokenIds = ['["', randDigits(rng, 77), '", "', randDigits(rng, rng() < 0.2 ? 76 : 77), '"]'].join('');
    this.umaBond = '500';
    this.umaReward = '5';
    this.acceptingOrders = open;
    this.negRisk = a.negRiskMarketID !== undefined;
    if (a.negRiskMarketID !== undefined) {
      this.negRiskMarketID = a.negRiskMarketID;
      this.negRiskRequestID = randHex(rng, 64, '0x');
    }
    this.ready = false;
    this.funded = false;
    this.acceptingOrdersTimestamp = isoSeconds(startMs - randInt(rng, 0, 120_000));
    this.cyom = false;
    if (open) this.competitive = Math.round(rng() * 1e15) / 1e15;
    this.approved = true;
    if (open && rng() < 0.4) {
      this.rewardsMinSize = pick(rng, [20, 50, 100]);
      this.rewardsMaxSpread = pick(rng, [3.5, 4.5]);
    }
    if (status !== 'inactive') {
      const step = tick === 0.01 ? 10 : 1;
      const bid = Math.max(1, p - step * randInt(rng, 0, 3));
      const ask = Math.min(999, p + step * randInt(rng, 1, 3));
      this.spread = (ask - bid) / 1000;
      if (open && rng() < 0.5) this.oneDayPriceChange = Math.round((rng() - 0.5) * 100) / 1000;
      if (open && rng() < 0.66) this.oneWeekPriceChange = Math.round((rng() - 0.5) * 200) / 1000;
      if (rng() < 0.95) this.lastTradePrice = p / 1000;
      if (rng() < (closed ? 0.5 : 0.87)) this.bestBid = bid / 1000;
      if (rng() < 0.97) this.bestAsk = ask / 1000;
    }
    this.automaticallyActive = true;
    this.clearBookOnStart = true;
    this.manualActivation = false;
    this.negRiskOther = false;
    this.umaResolutionStatuses = '[]';
    this.pendingDeployment = false;
    this.deploying = false;
    this.rfqEnabled = false;
    this.holdingRewardsEnabled = false;
    this.feesEnabled = false;
    this.requiresTranslation = false;
  }
}

interface EventArgs {
  id: string;
  slug: string;
  frame: EventFrame;
  status: Status;
  group: boolean;
  createdMs: number;
  endMs: number;
  closedMs: number;
  maxUpdatedMs: number;
  image: string;
  negRiskMarketID: string | undefined;
  markets: GammaMarket[];
  tags: GammaTag[];
  series: GammaSeries | undefined;
}

/** One event, keys in the order real `/events` objects use (a class for the reason given on SynthMarket). */
class SynthEvent {
  [key: string]: unknown;
  constructor(c: Ctx, a: EventArgs) {
    const { rng, now } = c;
    const closed = a.status !== 'open';
    let liquidity = 0;
    let volume = 0;
    let volume24 = 0;
    let volume1wk = 0;
    let volume1mo = 0;
    for (const m of a.markets) {
      volume += m.volumeNum ?? 0;
      liquidity += m.liquidityNum ?? 0;
      volume24 += (m.volume24hr as number | undefined) ?? 0;
      volume1wk += (m.volume1wk as number | undefined) ?? 0;
      volume1mo += (m.volume1mo as number | undefined) ?? 0;
    }
    const startMs = a.createdMs + randInt(rng, 1_000, 3_600_000);
    this.id = a.id;
    this.ticker = a.slug;
    this.slug = a.slug;
    this.title = a.frame.title;
    // Single-market events repeat the market's description, as the real ones do.
    this.description = a.group
      ? eventDescription(rng, a.frame.title, textLength(rng, 400, 150, 1800))
      : (a.markets[0] as GammaMarket).description;
    const src = rng();
    if (src < 0.5) this.resolutionSource = src < 0.4 ? '' : pick(rng, RESOLUTION_SOURCES);
    this.startDate = isoMicros(startMs * 1000 + randInt(rng, 0, 999));
    this.creationDate = isoMicros(startMs * 1000 + randInt(rng, 0, 999));
    this.endDate = isoSeconds(a.endMs);
    this.image = a.image;
    this.icon = a.image;
    this.active = true;
    this.closed = closed;
    this.archived = a.status === 'archived';
    this.new = false;
    this.featured = !closed && rng() < 0.02;
    this.restricted = true;
    this.liquidity = liquidity;
    this.volume = volume;
    this.openInterest = closed || rng() < 0.8 ? 0 : logNormal(rng, 8, 1.5, 2);
    this.createdAt = isoMicros(a.createdMs * 1000 + randInt(rng, 0, 999));
    this.updatedAt = isoMicros(Math.min(now, a.maxUpdatedMs + randInt(rng, 0, 60_000)) * 1000 + randInt(rng, 0, 999));
    this.competitive = closed ? 0 : Math.round(rng() * 1e15) / 1e15;
    if (volume24 > 0) this.volume24hr = volume24;
    if (volume1wk > 0) this.volume1wk = volume1wk;
    if (volume1mo > 0) this.volume1mo = volume1mo;
    this.enableOrderBook = true;
    this.liquidityClob = liquidity;
    if (a.negRiskMarketID !== undefined) {
      this.negRisk = true;
      this.negRiskMarketID = a.negRiskMarketID;
    }
    this.commentCount = rng() < 0.6 ? 0 : Math.floor(Math.exp(rng() * 6));
    this.markets = a.markets;
    if (a.series) this.series = [a.series];
    this.tags = a.tags;
    this.cyom = false;
    if (closed) this.closedTime = isoMicros(a.closedMs * 1000 + randInt(rng, 0, 999_999));
    this.showAllOutcomes = true;
    this.showMarketImages = a.group;
    this.enableNegRisk = a.negRiskMarketID !== undefined;
    this.automaticallyActive = true;
    if (a.series) this.seriesSlug = a.series.slug;
    if (a.group) this.gmpChartMode = 'default';
    this.negRiskAugmented = false;
    this.pendingDeployment = false;
    this.deploying = false;
    this.requiresTranslation = false;
  }
}

export function generateCatalog(opts: GenerateOptions): SyntheticCatalog {
  const total = Math.max(0, Math.floor(opts.markets));
  const seed = opts.seed ?? 1;
  const now = opts.now ?? DEFAULT_NOW;
  const rng = mulberry32(seed);

  const tags = buildTags(rng, now);
  const tagByLabel = new Map(tags.map((t) => [t.label as string, t]));
  // Popularity is independent of id order, as in the real list.
  const popularity = [...tags];
  for (let i = popularity.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [popularity[i], popularity[j]] = [popularity[j] as GammaTag, popularity[i] as GammaTag];
  }
  const tagRank = zipfSampler(popularity.length, 1.1, 16);

  const creators = [REAL_CREATOR];
  while (creators.length < 20) creators.push(randHex(rng, 40, '0x'));
  const ctx: Ctx = { rng, now, creators, creatorRank: zipfSampler(creators.length, 1.2, 12), marketSlugs: new Set(), lastUpdatedMs: 0 };

  const series: GammaSeries[] = [];
  const seriesByKey = new Map<string, GammaSeries>();
  let seriesId = 10_000 + randInt(rng, 1, 40);
  for (const spec of seriesSpecs()) {
    const created = now - randInt(rng, 731, 1200) * DAY;
    const slug = slugify(spec.title);
    const img = `${S3}${slug}-${base62(rng, 12)}.png`;
    const s: GammaSeries = {
      id: String(seriesId),
      ticker: slug,
      slug,
      title: spec.title,
      seriesType: 'single',
      recurrence: spec.recurrence,
      image: img,
      icon: img,
      active: true,
      closed: false,
      archived: false,
      featured: false,
      restricted: true,
      createdAt: isoMicros(created * 1000 + randInt(rng, 0, 999_999)),
      updatedAt: isoMicros((now - randInt(rng, 0, DAY)) * 1000),
      volume: logNormal(rng, 13, 1.5, 6),
      liquidity: logNormal(rng, 10, 1.5, 5),
      commentCount: randInt(rng, 0, 400),
      requiresTranslation: false,
    };
    series.push(s);
    seriesByKey.set(spec.key, s);
    seriesId += randInt(rng, 1, 60);
  }

  const events: GammaEvent[] = [];
  const markets: GammaMarket[] = [];
  const eventSlugs = new Set<string>();
  const expectedEvents = Math.max(1, Math.round(total / 2.5));
  const spanStart = now - 730 * DAY;
  const spanEnd = now - 3_600_000;
  let eventId = 9_000 + randInt(rng, 0, 999);
  let marketId = 400_000 + randInt(rng, 0, 9_999);
  let lastCreated = spanStart;
  let made = 0;
  let e = 0;

  while (made < total) {
    const k = Math.min(total - made, weighted(rng, MARKETS_PER_EVENT) + 1);
    // Creation density grows with time like the real catalog (sqrt spacing: more items recently).
    const frac = Math.min(1, e / expectedEvents);
    let created = spanStart + Math.sqrt(frac) * (spanEnd - spanStart) + randInt(rng, 0, 600_000);
    // Strictly after the previous event's markets, so ids ascend with creation time.
    created = Math.max(created, lastCreated + 1_000);
    const r = rng();
    const eventStatus: Status = r < 0.82 ? 'open' : r < 0.97 ? 'closed' : 'archived';
    const eventClosed = eventStatus !== 'open';
    // Closed events closed within the last 30 days; archived ones earlier when their age allows.
    let closedMs = 0;
    if (eventStatus === 'closed') closedMs = Math.max(created + 7_200_000, now - rng() * 30 * DAY);
    else if (eventStatus === 'archived') {
      const lo = created + DAY;
      const hi = now - 31 * DAY;
      closedMs = lo < hi ? lo + rng() * (hi - lo) : Math.max(created + 7_200_000, now - rng() * 30 * DAY);
    }
    closedMs = Math.min(Math.floor(closedMs), now - 1_000);
    const endMs = eventClosed ? noonUtc(closedMs - randInt(rng, 0, 2) * DAY) : noonUtc(now + randInt(rng, 1, 365) * DAY);

    const topic = pickTopic(rng);
    const frame = frameEvent(rng, topic, k, endMs);
    const idStr = String(eventId);
    let slug = slugify(frame.title);
    if (!slug || eventSlugs.has(slug)) slug = [slug, idStr].join('-');
    eventSlugs.add(slug);
    const image = [S3, slug.slice(0, 60), '-', base62(rng, 12), '.jpg'].join('');
    const group = k > 1;
    const negRiskMarketID = group && rng() < 0.8 ? randHex(rng, 64, '0x') : undefined;

    const eventMarkets: GammaMarket[] = [];
    let mCreated = created + randInt(rng, 500, 60_000);
    let maxUpdatedMs = 0;
    for (let j = 0; j < k; j++) {
      let status: Status = eventStatus;
      let mClosed = closedMs;
      if (eventStatus === 'open') {
        const q = rng();
        if (q < 0.06) {
          status = 'closed';
          mClosed = Math.min(now - 1_000, Math.floor(Math.max(mCreated + 3_600_000, now - rng() * 30 * DAY)));
        } else if (q < 0.085) status = 'inactive';
      }
      const mEnd = status === 'closed' && eventStatus === 'open' ? noonUtc(mClosed) : endMs;
      const frameMarket = frame.markets[j] as EventFrame['markets'][number];
      const m = new SynthMarket(ctx, {
        id: marketId,
        frame: frameMarket,
        index: j,
        group,
        status,
        createdMs: mCreated,
        endMs: mEnd,
        closedMs: mClosed,
        image,
        negRiskMarketID,
      }) as unknown as GammaMarket;
      eventMarkets.push(m);
      markets.push(m);
      if (ctx.lastUpdatedMs > maxUpdatedMs) maxUpdatedMs = ctx.lastUpdatedMs;
      marketId += 1 + (rng() < 0.7 ? 0 : randInt(rng, 1, 5));
      mCreated += randInt(rng, 300, 60_000);
    }
    lastCreated = mCreated;

    // Tags: the topic's own labels first, then popular ones (Zipf) up to 1..4 in total.
    const nTags = weighted(rng, TAGS_PER_EVENT) + 1;
    const evTags: GammaTag[] = [];
    for (const label of frame.tagLabels) {
      if (evTags.length >= nTags) break;
      const t = tagByLabel.get(label);
      if (t && !evTags.includes(t) && (evTags.length === 0 || rng() < 0.7)) evTags.push(t);
    }
    for (let tries = 0; evTags.length < nTags && tries < 10; tries++) {
      const t = popularity[tagRank(rng)] as GammaTag;
      if (!evTags.includes(t)) evTags.push(t);
    }
    const inSeries = rng() < 0.18 ? seriesByKey.get(frame.seriesKey) : undefined;
    const ev = new SynthEvent(ctx, {
      id: idStr,
      slug,
      frame,
      status: eventStatus,
      group,
      createdMs: created,
      endMs,
      closedMs,
      maxUpdatedMs,
      image,
      negRiskMarketID,
      markets: eventMarkets,
      tags: evTags,
      series: inSeries,
    }) as unknown as GammaEvent;
    events.push(ev);

    made += k;
    e++;
    eventId += 1 + (rng() < 0.6 ? 0 : randInt(rng, 1, 8));
  }

  return { events, markets, tags, series };
}
