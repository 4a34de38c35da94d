/**
 * The in-memory catalog the fake upstream serves. Items are indexed by id and kept exactly as
 * they were given (values and key order), so a market reads the same through `/markets` and
 * nested in `/events`; relations are kept beside the objects, not inside them.
 *
 * - A `/markets` item is the stored market. If the market came without its own `events`, they
 *   are built from its parent events (their fields minus `markets`), appended as the last key.
 * - An `/events` item is the stored event with `markets` set to its markets (minus `events`):
 *   in place of an existing `markets` key, otherwise appended.
 * - Mutations replace stored objects with patched copies (inputs are never modified) and give the
 *   item an `updatedAt` later than any in the catalog, so `order=updatedAt&ascending=false` sees it.
 */
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from '../contract/gamma.ts';
import { JsonCache } from './json-cache.ts';
import { localizeImageFields } from './images.ts';
import { modernizeParts, type ProtocolIds } from './protocol-versions.ts';
import { generateCatalog, type GenerateOptions } from './synthetic.ts';
import { isoMicros, timeKey } from './time-format.ts';

export interface CatalogParts {
  /** `/markets`-shaped objects (may carry nested `events`). */
  markets?: GammaMarket[];
  /** `/events`-shaped objects (may carry nested `markets`). */
  events?: GammaEvent[];
  tags?: GammaTag[];
  /** Series objects; nested `events` (as in statground files) join the catalog too. */
  series?: GammaSeries[];
}

export interface CatalogOptions {
  /** Budget of the long-lived serialised-item cache in characters (default 0: off; see the JSON section). */
  jsonCacheChars?: number;
}

export interface MarketRecord {
  readonly id: string;
  readonly num: number;
  obj: GammaMarket;
  /** Parent events, in the order they were first linked. */
  eventIds: string[];
}

export interface EventRecord {
  readonly id: string;
  readonly num: number;
  obj: GammaEvent;
  marketIds: string[];
  /** Completeness of `obj`: a full `/events` item beats a series' nested event beats a market's nested partial. */
  rank: number;
  /** Where `markets` goes in the event's JSON without it: char offset, -1 = appended (set with that JSON). */
  cut?: number;
}

const RANK_IN_MARKET = 0;
const RANK_IN_SERIES = 1;
const RANK_TOP = 2;
const ID_RE = /^\d+$/;
/** Placeholder swapped for the nested array after stringify; NULs cannot occur in real data. */
const SENTINEL = '\u0000fake-upstream-nested\u0000';
const SENTINEL_JSON = JSON.stringify(SENTINEL);

type Obj = Record<string, unknown>;

function hasOwn(o: object, k: string): boolean {
  return Object.hasOwn(o, k);
}

/** `obj` with `key` removed, other keys in their order (a loop: rest-destructuring a computed key is slow). */
function omit<T extends Obj>(obj: T, key: string): T {
  if (!hasOwn(obj, key)) return obj;
  const out: Obj = {};
  for (const k of Object.keys(obj)) if (k !== key) out[k] = obj[k];
  return out as T;
}

/**
 * JSON of `obj` without `key`, and the offset at which `,"key":…` belongs so that splicing it in
 * restores the original key order (-1: the key was absent, append it). One stringify serves both
 * the event nested in a market (no `markets`) and the `/events` item (with them).
 */
function jsonWithout(obj: Obj, key: string): { json: string; cut: number } {
  if (!hasOwn(obj, key)) return { json: JSON.stringify(obj), cut: -1 };
  const s = JSON.stringify({ ...obj, [key]: SENTINEL });
  const at = s.indexOf(SENTINEL_JSON);
  const keyStart = at - key.length - 3; // `"key":`
  const end = at + SENTINEL_JSON.length;
  if (s[keyStart - 1] === ',') return { json: s.slice(0, keyStart - 1) + s.slice(end), cut: keyStart - 1 };
  // First key: `{"key":X,...}` or `{"key":X}`.
  const rest = s.slice(end);
  return { json: rest === '}' ? '{}' : `{${rest.slice(1)}`, cut: 0 };
}

/** Puts `"key":arr` into `json` at `cut` (see jsonWithout). */
function splice(json: string, key: string, arr: string, cut: number): string {
  if (json === '{}') return `{"${key}":${arr}}`;
  if (cut < 0) return `${json.slice(0, -1)},"${key}":${arr}}`;
  if (cut === 0) return `{"${key}":${arr},${json.slice(1)}`;
  return `${json.slice(0, cut)},"${key}":${arr}${json.slice(cut)}`;
}

/** Copy of `obj` with `patch` applied: existing keys keep their place, `undefined` deletes a key. */
function applyPatch<T extends Obj>(obj: T, patch: Obj, skip: readonly string[], onlyExisting = false): T {
  const next: Obj = { ...obj };
  for (const [k, v] of Object.entries(patch)) {
    if (skip.includes(k) || (onlyExisting && !hasOwn(next, k))) continue;
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return next as T;
}

function checkId(id: unknown, what: string): string {
  if (typeof id !== 'string' || !ID_RE.test(id)) throw new Error(`${what} id must be a string of digits, got ${JSON.stringify(id)}`);
  return id;
}

/** Index of the first record with num >= `num` in a list sorted by num. */
export function lowerBound(list: readonly { num: number }[], num: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((list[mid] as { num: number }).num < num) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class FakeCatalog {
  private readonly markets = new Map<string, MarketRecord>();
  private readonly events = new Map<string, EventRecord>();
  private marketList: MarketRecord[] | null = null;
  private eventList: EventRecord[] | null = null;
  private readonly marketSlugs = new Map<string, MarketRecord>();
  private readonly marketConditions = new Map<string, MarketRecord>();
  private readonly eventSlugs = new Map<string, EventRecord>();
  private readonly tagList: GammaTag[] = [];
  private readonly tagIds = new Map<string, GammaTag>();
  private readonly tagSlugs = new Map<string, GammaTag>();
  private readonly seriesItems: GammaSeries[] = [];
  private readonly seriesIds = new Map<string, GammaSeries>();
  private readonly json: JsonCache;
  private memos = new Map<string, unknown>();
  private memoVersion = -1;
  private clockMs: number | undefined;
  private versionNo = 0;
  /** Token ids the catalog's v2 markets no longer list (protocol-versions.ts): the CLOB has no book for them. */
  protocolIds: ProtocolIds = { retired: new Map() };

  constructor(parts: CatalogParts | CatalogParts[] = [], opts: CatalogOptions = {}) {
    this.json = new JsonCache(opts.jsonCacheChars ?? 0);
    for (const p of Array.isArray(parts) ? parts : [parts]) this.ingest(p);
  }

  // ---- pictures --------------------------------------------------------------------------

  /** Where `image`/`icon` URLs point once the server listens (images.ts); undefined: as recorded. */
  private imageBase: string | undefined;

  /** Points every item's pictures at `base`'s `/images/` route, now and for items added later. */
  localizeImages(base: string): void {
    this.imageBase = base;
    for (const rec of this.markets.values()) this.localize(rec.obj);
    for (const rec of this.events.values()) this.localize(rec.obj);
    this.json.clear();
  }

  /** An item's own pictures and those of the copies nested in it (a market's events, an event's series). */
  private localize(obj: GammaMarket | GammaEvent): void {
    const base = this.imageBase;
    if (base === undefined) return;
    localizeImageFields(obj as Obj, base);
    for (const key of ['events', 'series'] as const) {
      const nested = (obj as Obj)[key];
      if (Array.isArray(nested)) for (const n of nested) if (n && typeof n === 'object') localizeImageFields(n as Obj, base);
    }
  }

  // ---- building -------------------------------------------------------------------------

  /** Adds items; an id seen before keeps its first object (events: the most complete one). */
  ingest(parts: CatalogParts): void {
    for (const t of parts.tags ?? []) this.addTagIfNew(t);
    for (const m of parts.markets ?? []) this.ingestMarket(m, undefined);
    for (const e of parts.events ?? []) this.ingestEvent(e, RANK_TOP);
    for (const s of parts.series ?? []) {
      this.addSeriesIfNew(s);
      const nested = (s as Obj).events;
      if (Array.isArray(nested)) for (const e of nested as GammaEvent[]) this.ingestEvent(e, RANK_IN_SERIES);
    }
    this.changed();
  }

  private ingestMarket(m: GammaMarket, parent: EventRecord | undefined): MarketRecord {
    const id = checkId(m.id, 'market');
    let rec = this.markets.get(id);
    if (!rec) {
      rec = { id, num: Number(id), obj: m, eventIds: [] };
      this.localize(m);
      this.markets.set(id, rec);
      this.indexMarket(rec);
      if (this.marketList) this.marketList.splice(lowerBound(this.marketList, rec.num), 0, rec);
    }
    if (Array.isArray(m.events)) {
      for (const e of m.events) if (e && typeof e.id === 'string') this.link(rec, this.ingestEvent(e, RANK_IN_MARKET));
    }
    if (parent) this.link(rec, parent);
    return rec;
  }

  private ingestEvent(e: GammaEvent, rank: number): EventRecord {
    const id = checkId(e.id, 'event');
    let rec = this.events.get(id);
    if (!rec) {
      rec = { id, num: Number(id), obj: e, marketIds: [], rank };
      this.localize(e);
      this.events.set(id, rec);
      this.indexEvent(rec);
      if (this.eventList) this.eventList.splice(lowerBound(this.eventList, rec.num), 0, rec);
    } else if (rank > rec.rank) {
      this.unindexEvent(rec);
      rec.obj = e;
      this.localize(e);
      rec.rank = rank;
      this.indexEvent(rec);
    }
    if (Array.isArray(e.tags)) for (const t of e.tags) if (t && typeof t.id === 'string') this.addTagIfNew(t);
    if (Array.isArray(e.series)) for (const s of e.series) if (s && typeof s.id === 'string') this.addSeriesIfNew(s);
    if (Array.isArray(e.markets)) for (const m of e.markets) this.ingestMarket(m, rec);
    return rec;
  }

  private link(m: MarketRecord, e: EventRecord): void {
    if (!m.eventIds.includes(e.id)) m.eventIds.push(e.id);
    if (!e.marketIds.includes(m.id)) e.marketIds.push(m.id);
  }

  private addTagIfNew(t: GammaTag): void {
    if (this.tagIds.has(t.id)) return;
    this.tagList.push(t);
    this.tagIds.set(t.id, t);
    if (typeof t.slug === 'string' && !this.tagSlugs.has(t.slug.toLowerCase())) this.tagSlugs.set(t.slug.toLowerCase(), t);
  }

  private addSeriesIfNew(s: GammaSeries): void {
    if (this.seriesIds.has(s.id)) return;
    this.seriesItems.push(s);
    this.seriesIds.set(s.id, s);
  }

  private indexMarket(rec: MarketRecord): void {
    const { slug, conditionId } = rec.obj;
    if (typeof slug === 'string' && !this.marketSlugs.has(slug)) this.marketSlugs.set(slug, rec);
    if (typeof conditionId === 'string' && !this.marketConditions.has(conditionId)) this.marketConditions.set(conditionId, rec);
  }

  private unindexMarket(rec: MarketRecord): void {
    const { slug, conditionId } = rec.obj;
    if (typeof slug === 'string' && this.marketSlugs.get(slug) === rec) this.marketSlugs.delete(slug);
    if (typeof conditionId === 'string' && this.marketConditions.get(conditionId) === rec) this.marketConditions.delete(conditionId);
  }

  private indexEvent(rec: EventRecord): void {
    const { slug } = rec.obj;
    if (typeof slug === 'string' && !this.eventSlugs.has(slug)) this.eventSlugs.set(slug, rec);
  }

  private unindexEvent(rec: EventRecord): void {
    const { slug } = rec.obj;
    if (typeof slug === 'string' && this.eventSlugs.get(slug) === rec) this.eventSlugs.delete(slug);
  }

  private changed(): void {
    this.versionNo++;
  }

  // ---- reading --------------------------------------------------------------------------

  /** Bumps on every change; derived views (sorted orders, indexes) are keyed on it. */
  get version(): number {
    return this.versionNo;
  }

  get counts(): { markets: number; events: number; tags: number; series: number } {
    return { markets: this.markets.size, events: this.events.size, tags: this.tagList.length, series: this.seriesItems.length };
  }

  /** Markets sorted by numeric id (shared array: do not modify). */
  marketRecords(): readonly MarketRecord[] {
    if (!this.marketList) this.marketList = [...this.markets.values()].sort((a, b) => a.num - b.num);
    return this.marketList;
  }

  eventRecords(): readonly EventRecord[] {
    if (!this.eventList) this.eventList = [...this.events.values()].sort((a, b) => a.num - b.num);
    return this.eventList;
  }

  marketRecord(id: string): MarketRecord | undefined {
    return this.markets.get(id);
  }

  eventRecord(id: string): EventRecord | undefined {
    return this.events.get(id);
  }

  marketBySlug(slug: string): MarketRecord | undefined {
    return this.marketSlugs.get(slug);
  }

  marketByConditionId(conditionId: string): MarketRecord | undefined {
    return this.marketConditions.get(conditionId);
  }

  eventBySlug(slug: string): EventRecord | undefined {
    return this.eventSlugs.get(slug);
  }

  tags(): readonly GammaTag[] {
    return this.tagList;
  }

  tag(id: string): GammaTag | undefined {
    return this.tagIds.get(id);
  }

  /** Tag slugs are case-insensitive upstream. */
  tagBySlug(slug: string): GammaTag | undefined {
    return this.tagSlugs.get(slug.toLowerCase());
  }

  series(): readonly GammaSeries[] {
    return this.seriesItems;
  }

  seriesById(id: string): GammaSeries | undefined {
    return this.seriesIds.get(id);
  }

  /** A value derived from the catalog, rebuilt after any change (sorted views, token index). */
  memo<T>(key: string, build: () => T): T {
    if (this.memoVersion !== this.versionNo) {
      this.memos = new Map();
      this.memoVersion = this.versionNo;
    }
    if (this.memos.has(key)) return this.memos.get(key) as T;
    const v = build();
    this.memos.set(key, v);
    return v;
  }

  /** The `/markets` item for `id` (shares nested objects with the catalog: treat as read-only). */
  getMarket(id: string): GammaMarket | undefined {
    const rec = this.markets.get(id);
    return rec && this.marketItem(rec);
  }

  /** The `/events` item for `id`, nested markets included. */
  getEvent(id: string): GammaEvent | undefined {
    const rec = this.events.get(id);
    return rec && ({ ...rec.obj, markets: rec.marketIds.map((m) => omit(this.markets.get(m)!.obj, 'events')) } as GammaEvent);
  }

  marketItem(rec: MarketRecord): GammaMarket {
    if (Array.isArray(rec.obj.events) || rec.eventIds.length === 0) return rec.obj;
    return { ...omit(rec.obj, 'events'), events: rec.eventIds.map((e) => omit(this.events.get(e)!.obj, 'markets')) };
  }

  /** `/markets` items in id order. */
  *allMarkets(): IterableIterator<GammaMarket> {
    for (const rec of this.marketRecords()) yield this.marketItem(rec);
  }

  *allEvents(): IterableIterator<GammaEvent> {
    for (const rec of this.eventRecords()) yield this.getEvent(rec.id)!;
  }

  // ---- JSON ----------------------------------------------------------------------------
  // Items are spliced together from two building blocks: a market without `events` (N) and an
  // event without `markets` (P), so a parent event is serialised once for all its markets. The
  // blocks go through the optional long-lived cache (off by default: measured on 100k-item walks,
  // every cached string gets promoted to the old generation, which cost more CPU than it saved and
  // more than doubled peak RSS) and through `scope`, a per-request memo that dies with the request.

  /** JSON of the `/markets` item; equals JSON.stringify(marketItem(rec)). */
  marketJson(rec: MarketRecord, scope?: Map<string, string>): string {
    if (Array.isArray(rec.obj.events) || rec.eventIds.length === 0) {
      const key = `M${rec.id}`;
      let s = this.json.get(key);
      if (s === undefined) {
        s = JSON.stringify(rec.obj);
        this.json.set(key, s);
      }
      return s;
    }
    const events = rec.eventIds.map((e) => this.partialEventJson(this.events.get(e)!, scope)).join(',');
    return splice(this.nestedMarketJson(rec), 'events', `[${events}]`, -1);
  }

  /** JSON of the market as nested in an event (no `events` key). */
  nestedMarketJson(rec: MarketRecord): string {
    const key = `N${rec.id}`;
    let s = this.json.get(key);
    if (s === undefined) {
      s = JSON.stringify(omit(rec.obj, 'events'));
      this.json.set(key, s);
    }
    return s;
  }

  /** JSON of the `/events` item; with `withMarkets` false, the event without a `markets` key. */
  eventJson(rec: EventRecord, withMarkets = true): string {
    const partial = this.partialEventJson(rec);
    if (!withMarkets) return partial;
    const markets = rec.marketIds.map((m) => this.nestedMarketJson(this.markets.get(m)!)).join(',');
    return splice(partial, 'markets', `[${markets}]`, rec.cut ?? -1);
  }

  private partialEventJson(rec: EventRecord, scope?: Map<string, string>): string {
    const key = `P${rec.id}`;
    let s = scope?.get(key) ?? this.json.get(key);
    if (s === undefined || rec.cut === undefined) {
      const { json, cut } = jsonWithout(rec.obj, 'markets');
      s = json;
      rec.cut = cut;
      this.json.set(key, s);
    }
    scope?.set(key, s);
    return s;
  }

  private forgetMarketJson(rec: MarketRecord): void {
    this.json.delete(`M${rec.id}`);
    this.json.delete(`N${rec.id}`);
  }

  private forgetEventJson(rec: EventRecord): void {
    this.json.delete(`P${rec.id}`);
    rec.cut = undefined;
  }

  // ---- mutation -------------------------------------------------------------------------

  /**
   * A timestamp later than every `updatedAt` in the catalog and every one handed out before,
   * in Gamma's ISO form. Uses the wall clock when that is later still.
   */
  nextTimestamp(): string {
    if (this.clockMs === undefined) {
      let max = 0;
      for (const r of this.markets.values()) if (typeof r.obj.updatedAt === 'string') max = Math.max(max, timeKey(r.obj.updatedAt) || 0);
      for (const r of this.events.values()) if (typeof r.obj.updatedAt === 'string') max = Math.max(max, timeKey(r.obj.updatedAt) || 0);
      this.clockMs = max;
    }
    const ms = Math.max(Date.now(), Math.floor(this.clockMs) + 1);
    this.clockMs = ms;
    return isoMicros(ms * 1000);
  }

  /** Patches a market (`undefined` deletes a key; `id`/`events` are ignored) and bumps its and its events' `updatedAt`. */
  updateMarket(id: string, patch: Partial<GammaMarket>): GammaMarket {
    const rec = this.markets.get(id);
    if (!rec) throw new Error(`unknown market ${id}`);
    const ts = this.nextTimestamp();
    const next = applyPatch(rec.obj, patch, ['id', 'events']);
    if (!hasOwn(patch, 'updatedAt')) next.updatedAt = ts;
    this.forgetMarketJson(rec);
    this.unindexMarket(rec);
    rec.obj = next;
    this.indexMarket(rec);
    for (const e of rec.eventIds) this.patchEvent(this.events.get(e)!, { updatedAt: ts });
    this.changed();
    return this.marketItem(rec);
  }

  /** Patches an event (`id`/`markets` ignored), bumping `updatedAt`; copies nested in markets' own `events` follow. */
  updateEvent(id: string, patch: Partial<GammaEvent>): GammaEvent {
    const rec = this.events.get(id);
    if (!rec) throw new Error(`unknown event ${id}`);
    const full: Obj = { ...patch };
    if (!hasOwn(patch, 'updatedAt')) full.updatedAt = this.nextTimestamp();
    this.patchEvent(rec, full);
    this.changed();
    return this.getEvent(id)!;
  }

  private patchEvent(rec: EventRecord, patch: Obj): void {
    this.forgetEventJson(rec);
    this.unindexEvent(rec);
    rec.obj = applyPatch(rec.obj, patch, ['id', 'markets']);
    this.indexEvent(rec);
    // Markets that came with their own nested copy of this event: keep the copy in step, in its
    // partial shape (only keys it already has).
    for (const mid of rec.marketIds) {
      const m = this.markets.get(mid)!;
      const own = m.obj.events;
      if (!Array.isArray(own) || !own.some((e) => e?.id === rec.id)) continue;
      this.forgetMarketJson(m);
      m.obj = { ...m.obj, events: own.map((e) => (e?.id === rec.id ? applyPatch(e, patch, ['id', 'markets'], true) : e)) };
    }
  }

  /**
   * Adds a market (a copy, `updatedAt` set to a new timestamp). Parents come from its own
   * `events` and/or `opts.eventId` (which must exist); their `updatedAt` is bumped too.
   */
  addMarket(market: GammaMarket, opts: { eventId?: string } = {}): GammaMarket {
    const id = checkId(market.id, 'market');
    if (this.markets.has(id)) throw new Error(`market ${id} exists`);
    const parent = opts.eventId === undefined ? undefined : this.events.get(opts.eventId);
    if (opts.eventId !== undefined && !parent) throw new Error(`unknown event ${opts.eventId}`);
    const ts = this.nextTimestamp();
    const obj: GammaMarket = { ...market, updatedAt: ts };
    if (obj.createdAt === undefined) obj.createdAt = ts;
    const rec = this.ingestMarket(obj, parent);
    for (const e of rec.eventIds) this.patchEvent(this.events.get(e)!, { updatedAt: ts });
    this.changed();
    return this.marketItem(rec);
  }

  /** Adds an event (a copy, new `updatedAt`); nested markets not yet known are added with it. */
  addEvent(event: GammaEvent): GammaEvent {
    const id = checkId(event.id, 'event');
    if (this.events.has(id)) throw new Error(`event ${id} exists`);
    const ts = this.nextTimestamp();
    const obj: GammaEvent = { ...event, updatedAt: ts };
    if (obj.createdAt === undefined) obj.createdAt = ts;
    if (Array.isArray(event.markets)) {
      obj.markets = event.markets.map((m) => (this.markets.has(m.id) ? m : { ...m, updatedAt: ts, createdAt: m.createdAt ?? ts }));
      for (const m of event.markets) {
        const known = this.markets.get(m.id);
        if (known) this.forgetMarketJson(known);
      }
    }
    this.ingestEvent(obj, RANK_TOP);
    this.changed();
    return this.getEvent(id)!;
  }

  /** Removes a market; its events lose it and get a new `updatedAt`. */
  removeMarket(id: string): boolean {
    const rec = this.markets.get(id);
    if (!rec) return false;
    const ts = this.nextTimestamp();
    this.dropMarket(rec);
    for (const e of rec.eventIds) {
      const ev = this.events.get(e);
      if (ev) this.patchEvent(ev, { updatedAt: ts });
    }
    this.changed();
    return true;
  }

  private dropMarket(rec: MarketRecord): void {
    this.forgetMarketJson(rec);
    this.unindexMarket(rec);
    this.markets.delete(rec.id);
    for (const e of rec.eventIds) {
      const ev = this.events.get(e);
      if (ev) ev.marketIds = ev.marketIds.filter((m) => m !== rec.id);
    }
    if (this.marketList) {
      const at = lowerBound(this.marketList, rec.num);
      if (this.marketList[at] === rec) this.marketList.splice(at, 1);
      else this.marketList = null;
    }
  }

  /**
   * Removes an event. Its markets that belong to no other event go too unless `keepMarkets`;
   * the rest lose the link (and their own nested copy of the event).
   */
  removeEvent(id: string, opts: { keepMarkets?: boolean } = {}): boolean {
    const rec = this.events.get(id);
    if (!rec) return false;
    this.forgetEventJson(rec);
    for (const mid of rec.marketIds) {
      const m = this.markets.get(mid)!;
      m.eventIds = m.eventIds.filter((e) => e !== id);
      if (Array.isArray(m.obj.events) && m.obj.events.some((e) => e?.id === id)) {
        this.forgetMarketJson(m);
        m.obj = { ...m.obj, events: m.obj.events.filter((e) => e?.id !== id) };
      }
      if (!opts.keepMarkets && m.eventIds.length === 0) this.dropMarket(m);
    }
    this.unindexEvent(rec);
    this.events.delete(id);
    if (this.eventList) {
      const at = lowerBound(this.eventList, rec.num);
      if (this.eventList[at] === rec) this.eventList.splice(at, 1);
      else this.eventList = null;
    }
    this.changed();
    return true;
  }
}

/** A catalog over a freshly generated synthetic data set (see synthetic.ts). */
export function createSyntheticCatalog(opts: GenerateOptions & CatalogOptions): FakeCatalog {
  const { events, tags, series } = generateCatalog(opts);
  // Markets arrive nested in their events; tags and series first so /tags keeps id order.
  // A third of the markets become v2, deterministically from the seed (protocol-versions.ts).
  const { parts, ids } = modernizeParts([{ tags, series }, { events }], opts.seed ?? 1);
  const catalog = new FakeCatalog(parts, opts);
  catalog.protocolIds = ids;
  return catalog;
}
