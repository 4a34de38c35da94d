/**
 * The alerts' logic, as pure functions over what the engine read from the store (alert-engine.ts):
 * which rules fire now, and each rule's state after. A rule fires once per crossing: it fires when
 * its condition becomes true and re-arms when the condition is false again, and that state is kept
 * with the rule (rules-file.ts), so a restart neither re-fires nor forgets.
 *
 * - price_cross: the side of `level` the price is on (price >= level is above) against the side
 *   last seen; a change of side in the rule's direction fires. Creation records the first side.
 * - price_move: the price now against the lowest and highest recorded within the window (and the
 *   price now): a distance of `points` or more holds; it fires when it starts to hold.
 * - new_match: each new market (or event, for an events screen) that matches, one firing each.
 * - rule_edit: the target's revisions (question/title, description, resolution source, end date,
 *   outcomes) since the rule last looked; one firing per edited item per evaluation.
 * - ends_soon: the end date is in the future and within `hours` of now; fires once per target,
 *   and again only after the end date moved out of the window and back.
 * - order_done: an open order that is gone after a refresh; one firing per order.
 * Without a target, rule_edit and ends_soon watch every market and event on the watchlist.
 */
import type { AlertRule, FiredAlert } from '../contract/alerts-ops.ts';
import type { RuleState, StoredRule } from './rules-file.ts';

const HOUR_MS = 3_600_000;
/** Prices are in 1/10,000 in the cache; below that, a difference is rounding. */
const EPS = 1e-9;

export interface MarketFacts {
  id: string;
  slug: string | null;
  question: string | null;
  /** The first outcome's price, 0..1; null when the market has none. */
  price: number | null;
  /** Epoch ms; null when unknown. */
  endMs: number | null;
}

export interface EventFacts {
  id: string;
  slug: string | null;
  title: string | null;
  endMs: number | null;
}

/** A market's or event's item in the change feed or the revisions, with its names. */
export interface ItemRef {
  entity: 'market' | 'event';
  id: string;
  slug: string | null;
  /** The market's question or the event's title. */
  name: string | null;
}

export interface RevisionFact extends ItemRef {
  seq: number;
  field: string;
  before: string | null;
  after: string | null;
}

export interface NewItem extends ItemRef {
  seq: number;
  /** Its end time (epoch ms), null when it has none. */
  endMs: number | null;
}

export interface CatalogInputs {
  /** Epoch ms. */
  now: number;
  markets: ReadonlyMap<string, MarketFacts>;
  events: ReadonlyMap<string, EventFacts>;
  /** price_move: the lowest and highest recorded price of `<marketId>/<windowHours>` within that window. */
  ranges: ReadonlyMap<string, { min: number; max: number }>;
  /** Revisions after the lowest position of the rule_edit rules, oldest first. */
  revisions: readonly RevisionFact[];
  /** The positions (seq) of the change feed and the revisions this evaluation read up to. */
  changeSeq: number;
  revisionSeq: number;
  /** new_match: per rule id, the new items after the rule's position that match it. */
  matches: ReadonlyMap<string, readonly NewItem[]>;
  watch: { markets: readonly string[]; events: readonly string[] };
}

/** A firing before the engine gives it an id and a time. */
export type Firing = Omit<FiredAlert, 'id' | 'at'>;

export interface Evaluation {
  firings: Firing[];
  /** The new state of each rule whose state changed. */
  states: Map<string, RuleState>;
}

/** What an evaluation must read: every targeted item, the price windows, the feed positions. */
export interface Needs {
  markets: Set<string>;
  events: Set<string>;
  /** windowHours -> market ids. */
  windows: Map<number, Set<string>>;
  /** The lowest change-feed position of the new_match rules; undefined: none. */
  changeSeq: number | undefined;
  revisionSeq: number | undefined;
  newMatch: StoredRule[];
}

const minOf = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

export function needsOf(rules: readonly StoredRule[], watch: CatalogInputs['watch']): Needs {
  const n: Needs = {
    markets: new Set(),
    events: new Set(),
    windows: new Map(),
    changeSeq: undefined,
    revisionSeq: undefined,
    newMatch: [],
  };
  let watched = false;
  for (const r of rules) {
    switch (r.kind) {
      case 'price_cross':
        if (r.market) n.markets.add(r.market.id);
        break;
      case 'price_move':
        if (r.market && r.windowHours !== undefined) {
          n.markets.add(r.market.id);
          const set = n.windows.get(r.windowHours) ?? new Set<string>();
          n.windows.set(r.windowHours, set);
          set.add(r.market.id);
        }
        break;
      case 'ends_soon':
        if (r.market) n.markets.add(r.market.id);
        else if (r.event) n.events.add(r.event.id);
        else watched = true;
        break;
      case 'rule_edit':
        n.revisionSeq = minOf(n.revisionSeq, r.state.revisionSeq ?? Number.MAX_SAFE_INTEGER);
        break;
      case 'new_match':
        n.changeSeq = minOf(n.changeSeq, r.state.changeSeq ?? Number.MAX_SAFE_INTEGER);
        n.newMatch.push(r);
        break;
      case 'order_done':
        break;
    }
  }
  if (watched) {
    for (const id of watch.markets) n.markets.add(id);
    for (const id of watch.events) n.events.add(id);
  }
  return n;
}

/** 0.634 -> "63.4¢". */
export function cents(p: number | null | undefined): string {
  if (p === null || p === undefined) return '?';
  return `${Number((p * 100).toFixed(1))}¢`;
}

const points = (d: number) => `${d >= 0 ? '+' : '−'}${Number((Math.abs(d) * 100).toFixed(1))} pts`;

function marketRef(rule: AlertRule, m: MarketFacts | undefined): Pick<FiredAlert, 'market'> {
  if (m) return { market: { id: m.id, slug: m.slug, question: m.question } };
  return rule.market ? { market: rule.market } : {};
}

function refOf(item: ItemRef): Pick<FiredAlert, 'market' | 'event'> {
  return item.entity === 'market'
    ? { market: { id: item.id, slug: item.slug, question: item.name } }
    : { event: { id: item.id, slug: item.slug, title: item.name } };
}

const nameOf = (rule: AlertRule, m?: MarketFacts) => m?.question ?? rule.market?.question ?? rule.market?.id ?? 'a market';

function priceCross(rule: StoredRule, inp: CatalogInputs, out: Evaluation): void {
  const m = rule.market ? inp.markets.get(rule.market.id) : undefined;
  const price = m?.price;
  if (price === null || price === undefined || rule.level === undefined) return;
  const side = price >= rule.level - EPS ? 'above' : 'below';
  const prev = rule.state.side;
  const before = rule.state.last;
  if (prev !== side || before !== price) out.states.set(rule.id, { ...rule.state, side, last: price });
  if (prev === undefined || prev === side) return;
  const dir = rule.direction ?? 'either';
  if (dir === (side === 'above' ? 'down' : 'up')) return;
  out.firings.push({
    ruleId: rule.id,
    kind: rule.kind,
    ...marketRef(rule, m),
    title: `${nameOf(rule, m)} crossed ${cents(rule.level)} (${cents(before)} → ${cents(price)})`,
    before: before ?? null,
    after: price,
  });
}

function priceMove(rule: StoredRule, inp: CatalogInputs, out: Evaluation): void {
  const m = rule.market ? inp.markets.get(rule.market.id) : undefined;
  const price = m?.price;
  if (price === null || price === undefined || rule.points === undefined || rule.windowHours === undefined) return;
  const r = inp.ranges.get(`${m!.id}/${rule.windowHours}`);
  const lo = Math.min(r?.min ?? price, price);
  const hi = Math.max(r?.max ?? price, price);
  // The larger distance from the window's extremes, signed: up from the low or down from the high.
  const move = price - lo >= hi - price ? price - lo : price - hi;
  const holds = Math.abs(move) >= rule.points - EPS;
  const key = `m${m!.id}`;
  const was = (rule.state.held ?? []).includes(key);
  if (holds !== was) out.states.set(rule.id, { ...rule.state, held: holds ? [key] : [] });
  if (!holds || was) return;
  out.firings.push({
    ruleId: rule.id,
    kind: rule.kind,
    ...marketRef(rule, m),
    title: `${nameOf(rule, m)} moved ${points(move)} in ${rule.windowHours} h (${cents(price - move)} → ${cents(price)})`,
    before: Math.round((price - move) * 10_000) / 10_000,
    after: price,
  });
}

function endsSoon(rule: StoredRule, inp: CatalogInputs, out: Evaluation): void {
  if (rule.hours === undefined) return;
  const targets: ItemRef[] = [];
  const add = (entity: 'market' | 'event', id: string) => {
    const f = entity === 'market' ? inp.markets.get(id) : inp.events.get(id);
    if (f) targets.push({ entity, id, slug: f.slug, name: 'question' in f ? f.question : f.title });
  };
  if (rule.market) add('market', rule.market.id);
  else if (rule.event) add('event', rule.event.id);
  else {
    for (const id of inp.watch.markets) add('market', id);
    for (const id of inp.watch.events) add('event', id);
  }
  const held = new Set(rule.state.held ?? []);
  const seen = new Set<string>();
  let changed = false;
  for (const t of targets) {
    const key = `${t.entity === 'market' ? 'm' : 'e'}${t.id}`;
    seen.add(key);
    const end = (t.entity === 'market' ? inp.markets.get(t.id) : inp.events.get(t.id))!.endMs;
    const holds = end !== null && end > inp.now && end - inp.now <= rule.hours * HOUR_MS;
    if (!holds) {
      if (held.delete(key)) changed = true;
      continue;
    }
    if (held.has(key)) continue;
    held.add(key);
    changed = true;
    const left = (end - inp.now) / HOUR_MS;
    out.firings.push({
      ruleId: rule.id,
      kind: rule.kind,
      ...refOf(t),
      title: `${t.name ?? t.id} ends in ${left < 1 ? `${Math.max(1, Math.round(left * 60))} min` : `${Math.round(left)} h`}`,
      before: null,
      after: { endDate: new Date(end).toISOString() },
    });
  }
  // A watched item taken off the watchlist re-arms (a target still there but not cached keeps its state).
  if (!rule.market && !rule.event) {
    const watched = new Set([...inp.watch.markets.map((id) => `m${id}`), ...inp.watch.events.map((id) => `e${id}`)]);
    for (const key of held) if (!watched.has(key) && held.delete(key)) changed = true;
  }
  if (changed) out.states.set(rule.id, { ...rule.state, held: [...held] });
}

function ruleEdit(rule: StoredRule, inp: CatalogInputs, out: Evaluation): void {
  const from = rule.state.revisionSeq;
  if (from !== inp.revisionSeq) out.states.set(rule.id, { ...rule.state, revisionSeq: inp.revisionSeq });
  // A rule that never read the revisions starts from now.
  if (from === undefined) return;
  const markets = new Set(rule.market ? [rule.market.id] : rule.event ? [] : inp.watch.markets);
  const events = new Set(rule.event ? [rule.event.id] : rule.market ? [] : inp.watch.events);
  const edits = new Map<string, { item: ItemRef; before: Record<string, string | null>; after: Record<string, string | null> }>();
  for (const r of inp.revisions) {
    if (r.seq <= from || r.seq > inp.revisionSeq) continue;
    if (!(r.entity === 'market' ? markets : events).has(r.id)) continue;
    const key = `${r.entity}:${r.id}`;
    const e = edits.get(key) ?? { item: r, before: {}, after: {} };
    edits.set(key, e);
    if (!(r.field in e.before)) e.before[r.field] = r.before;
    e.after[r.field] = r.after;
    e.item = r;
  }
  for (const e of edits.values()) {
    out.firings.push({
      ruleId: rule.id,
      kind: rule.kind,
      ...refOf(e.item),
      title: `Rules edited: ${e.item.name ?? e.item.id} (${Object.keys(e.after).join(', ')})`,
      before: e.before,
      after: e.after,
    });
  }
}

function newMatch(rule: StoredRule, inp: CatalogInputs, out: Evaluation): void {
  const from = rule.state.changeSeq;
  if (from !== inp.changeSeq) out.states.set(rule.id, { ...rule.state, changeSeq: inp.changeSeq });
  if (from === undefined) return;
  for (const item of inp.matches.get(rule.id) ?? []) {
    if (item.seq <= from || item.seq > inp.changeSeq) continue;
    out.firings.push({
      ruleId: rule.id,
      kind: rule.kind,
      ...refOf(item),
      title: `New ${item.entity} matches “${rule.label}”: ${item.name ?? item.id}`,
      before: null,
      after: { id: item.id },
    });
  }
}

/** Evaluates the catalog's rules (all but order_done) against one read of the store. */
export function evaluateCatalog(rules: readonly StoredRule[], inp: CatalogInputs): Evaluation {
  const out: Evaluation = { firings: [], states: new Map() };
  for (const rule of rules) {
    switch (rule.kind) {
      case 'price_cross':
        priceCross(rule, inp, out);
        break;
      case 'price_move':
        priceMove(rule, inp, out);
        break;
      case 'ends_soon':
        endsSoon(rule, inp, out);
        break;
      case 'rule_edit':
        ruleEdit(rule, inp, out);
        break;
      case 'new_match':
        newMatch(rule, inp, out);
        break;
      case 'order_done':
        break;
    }
  }
  return out;
}

// ---- orders ------------------------------------------------------------------------------

/** An open order as the orders cache holds it, with its cached market when known. */
export interface OrderFact {
  id: string;
  marketId: string | null;
  question: string | null;
  outcome: string | null;
  side: string | null;
  price: string;
  originalSize: string;
  sizeMatched: string;
}

/** The orders open before a refresh and gone after it. */
export function vanishedOrders(before: readonly OrderFact[], after: readonly OrderFact[]): OrderFact[] {
  const still = new Set(after.map((o) => o.id));
  return before.filter((o) => !still.has(o.id));
}

/**
 * What became of a vanished order: the upstream's own word when it has one (`GET /data/order/{id}`
 * answers MATCHED or CANCELED), else filled when its matched size had reached its size, else
 * cancelled. null: the upstream says it is still live (a list read mid-change): nothing fired.
 */
export function orderOutcome(
  last: Pick<OrderFact, 'originalSize' | 'sizeMatched'>,
  upstream: { status: string; originalSize: string; sizeMatched: string } | null,
): 'filled' | 'cancelled' | null {
  const status = upstream?.status.toLowerCase() ?? '';
  if (status === 'matched' || status === 'filled') return 'filled';
  if (status.startsWith('cancel')) return 'cancelled';
  if (status === 'live') return null;
  const o = upstream ?? last;
  const size = Number(o.originalSize);
  return Number.isFinite(size) && size > 0 && Number(o.sizeMatched) >= size ? 'filled' : 'cancelled';
}

/** One firing per done order per order_done rule that covers its market. */
export function evaluateOrders(
  rules: readonly StoredRule[],
  done: readonly { order: OrderFact; status: 'filled' | 'cancelled' }[],
): Firing[] {
  const out: Firing[] = [];
  for (const rule of rules) {
    if (rule.kind !== 'order_done') continue;
    for (const { order: o, status } of done) {
      if (rule.market && rule.market.id !== o.marketId) continue;
      const what = [o.side, o.originalSize, o.outcome, o.price ? `@ ${cents(Number(o.price))}` : null].filter(Boolean).join(' ');
      out.push({
        ruleId: rule.id,
        kind: rule.kind,
        ...(o.marketId ? { market: { id: o.marketId, slug: rule.market?.slug ?? null, question: o.question } } : {}),
        title: `Order ${status}: ${what}${o.question ? ` on ${o.question}` : ''}`,
        before: { sizeMatched: o.sizeMatched, originalSize: o.originalSize },
        after: { status },
        order: { id: o.id, outcome: o.outcome, side: o.side, status },
      });
    }
  }
  return out;
}
