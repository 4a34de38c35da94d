/**
 * Runs the alerts: after every catalog sync (its return to idle) it reads what the rules need in
 * a few batched queries (store-reads.ts), evaluates them (evaluate.ts), keeps the new states with
 * the rules, appends what fired to the log and tells its listeners (the push hub sends `alert`
 * per firing, then `alerts`). After every orders refresh it compares the account's open orders
 * with those before and asks the upstream what became of each one that is gone. Price rules are
 * also evaluated on live ticks (`evaluateLive`), and every evaluation reads a live market's price
 * from the live layer rather than the catalog (`setLivePrices`).
 */
import { randomBytes } from 'node:crypto';
import type { FiredAlert, OrdersStatus, Screen, SyncStatus } from '../contract/index.ts';
import { silentLogger, type Logger } from '../logger.ts';
import {
  evaluateCatalog,
  evaluateOrders,
  needsOf,
  orderOutcome,
  vanishedOrders,
  type CatalogInputs,
  type Firing,
  type MarketFacts,
  type NewItem,
  type OrderFact,
} from './evaluate.ts';
import type { FiredLog } from './fired-log.ts';
import type { AlertRulesFile, RuleState, StoredRule } from './rules-file.ts';
import type { AlertReads } from './store-reads.ts';

export interface OrderSource {
  /** The configured account's cached open orders; undefined when no account is configured. */
  current(): { account: string; orders: OrderFact[] } | undefined;
  /** The upstream's word on one order (`GET /data/order/{id}`); null when it has none or cannot say. */
  lookup?(id: string): Promise<{ status: string; originalSize: string; sizeMatched: string } | null>;
}

export interface AlertEngineOptions {
  rules: AlertRulesFile;
  fired: FiredLog;
  reads: AlertReads;
  /** The watchlist's market and event ids. */
  watched(): { markets: string[]; events: string[] };
  screen(id: string): Screen | undefined;
  orders?: OrderSource;
  now?: () => number;
  log?: Logger;
}

export type NewRule = Omit<StoredRule, 'id' | 'state' | 'createdAt' | 'lastFiredAt'>;

/**
 * A market's price from the live layer (src/service/live-alerts.ts): `live` when its books are live
 * now; else the last live price, while it is still newer than the catalog's. Undefined: use the catalog's.
 */
export type LivePrices = (marketId: string) => { price: number; live: boolean } | undefined;

const priceKinds = new Set(['price_cross', 'price_move']);

export class AlertEngine {
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly firedListeners = new Set<(fired: FiredAlert[]) => void>();
  private readonly ruleListeners = new Set<() => void>();
  private orderBaseline: { account: string; orders: OrderFact[] } | undefined;
  private ordersChain: Promise<unknown> = Promise.resolve();
  private livePrices: LivePrices | undefined;

  constructor(private readonly o: AlertEngineOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? silentLogger;
    this.orderBaseline = o.orders?.current();
  }

  /** Called with what fired, oldest first, after the log and the rules were updated. */
  onFired(fn: (fired: FiredAlert[]) => void): () => void {
    this.firedListeners.add(fn);
    return () => this.firedListeners.delete(fn);
  }

  /** Called after a rule was added or removed. */
  onRulesChanged(fn: () => void): () => void {
    this.ruleListeners.add(fn);
    return () => this.ruleListeners.delete(fn);
  }

  /**
   * Prices from the live layer: from now on a market with a live price is evaluated on it, in every
   * evaluation (a sync's too), so the catalog's lagging price never crosses back what a tick crossed.
   */
  setLivePrices(fn: LivePrices | undefined): void {
    this.livePrices = fn;
  }

  /** Adds a rule, its state taken now: the feeds' positions, and a price_cross rule's side of its level. */
  add(rule: NewRule): StoredRule {
    const pos = this.o.reads.positions();
    const state: RuleState = {};
    if (rule.kind === 'new_match') state.changeSeq = pos.changeSeq;
    if (rule.kind === 'rule_edit') state.revisionSeq = pos.revisionSeq;
    if (rule.kind === 'price_cross' && rule.market && rule.level !== undefined) {
      const price = this.withLive(this.o.reads.markets([rule.market.id])).get(rule.market.id)?.price;
      if (price !== null && price !== undefined) Object.assign(state, { side: price >= rule.level ? 'above' : 'below', last: price });
    }
    const added = this.o.rules.add({ ...rule, createdAt: new Date(this.now()).toISOString(), lastFiredAt: null, state });
    this.rulesChanged();
    return added;
  }

  remove(id: string): boolean {
    const found = this.o.rules.remove(id);
    if (found) this.rulesChanged();
    return found;
  }

  /** Follows a catalog sync: evaluates each time a run ends. */
  watchSync(sync: { onStatus(fn: (s: SyncStatus) => void): () => void }): () => void {
    let running = false;
    return sync.onStatus((s) => {
      const ended = running && !s.running;
      running = s.running;
      if (!ended) return;
      try {
        this.evaluateCatalog();
      } catch (e) {
        // A sync must not fail because of an alert; the next one evaluates again.
        this.log.warn(`alerts: evaluation failed: ${(e as Error).stack ?? String(e)}`);
      }
    });
  }

  /** Follows the orders refreshes: checks the orders each time a fetch lands. */
  watchOrders(orders: { onStatus(fn: (s: OrdersStatus) => void): () => void }): () => void {
    let fetchedAt: string | null | undefined;
    return orders.onStatus((s) => {
      if (s.refreshing || s.fetchedAt === fetchedAt) return;
      fetchedAt = s.fetchedAt;
      void this.ordersRefreshed().catch((e: unknown) => this.log.warn(`alerts: orders check failed: ${(e as Error).message}`));
    });
  }

  /** Evaluates every catalog rule now; returns what fired. */
  evaluateCatalog(): FiredAlert[] {
    const rules = this.o.rules.all().filter((r) => r.kind !== 'order_done');
    if (rules.length === 0) return [];
    const result = evaluateCatalog(rules, this.readInputs(rules));
    for (const rule of rules) {
      const state = result.states.get(rule.id);
      if (state) rule.state = state;
    }
    if (result.states.size > 0 && result.firings.length === 0) this.o.rules.changed();
    return this.fire(result.firings);
  }

  /**
   * Evaluates the price rules (price_cross, price_move) of these markets on their live prices, after
   * their ticks: only markets whose books are live now (else nothing: the catalog's price is not
   * newer). State changes that matter (a side, a held move) are saved; a new `last` alone is kept in
   * memory until the next save.
   */
  evaluateLive(marketIds: Iterable<string>): FiredAlert[] {
    const prices = this.livePrices;
    if (!prices) return [];
    const asked = new Set(marketIds);
    const live = new Map<string, boolean>();
    const isLive = (id: string): boolean => {
      let v = live.get(id);
      if (v === undefined) {
        v = prices(id)?.live === true;
        live.set(id, v);
      }
      return v;
    };
    const rules = this.o.rules.all().filter((r) => priceKinds.has(r.kind) && r.market && asked.has(r.market.id) && isLive(r.market.id));
    if (rules.length === 0) return [];
    const result = evaluateCatalog(rules, this.readInputs(rules));
    let save = false;
    for (const rule of rules) {
      const state = result.states.get(rule.id);
      if (!state) continue;
      if (state.side !== rule.state.side || (state.held ?? []).join() !== (rule.state.held ?? []).join()) save = true;
      rule.state = state;
    }
    if (save && result.firings.length === 0) this.o.rules.changed();
    return this.fire(result.firings);
  }

  /** The markets' facts with each live price in place of the catalog's. */
  private withLive(markets: Map<string, MarketFacts>): Map<string, MarketFacts> {
    const live = this.livePrices;
    if (!live) return markets;
    for (const [id, m] of markets) {
      const p = live(id);
      if (p) markets.set(id, { ...m, price: p.price });
    }
    return markets;
  }

  /** What an evaluation of `rules` reads: a few batched queries (the bench times them alone). */
  readInputs(rules: readonly StoredRule[]): CatalogInputs {
    const { reads } = this.o;
    const now = this.now();
    const watch = this.o.watched();
    const needs = needsOf(rules, watch);
    const pos = reads.positions();
    const revisions =
      needs.revisionSeq !== undefined && needs.revisionSeq < pos.revisionSeq
        ? reads.revisionsAfter(needs.revisionSeq, pos.revisionSeq)
        : [];
    return {
      now,
      markets: this.withLive(reads.markets(needs.markets)),
      events: reads.events(needs.events),
      ranges: needs.windows.size > 0 ? reads.ranges(needs.windows, now) : new Map(),
      revisions,
      changeSeq: pos.changeSeq,
      revisionSeq: pos.revisionSeq,
      matches: this.matches(needs.newMatch, needs.changeSeq, pos.changeSeq),
      watch,
    };
  }

  /** Compares the cached open orders with those before the refresh; what vanished fires order_done rules. */
  ordersRefreshed(): Promise<FiredAlert[]> {
    const run = this.ordersChain.then(() => this.checkOrders());
    this.ordersChain = run.catch(() => {});
    return run;
  }

  /** Waits until the rules and the log are on disk. */
  async flush(): Promise<void> {
    await this.ordersChain;
    await Promise.all([this.o.rules.flush(), this.o.fired.flush()]);
  }

  private async checkOrders(): Promise<FiredAlert[]> {
    const source = this.o.orders;
    if (!source) return [];
    const before = this.orderBaseline;
    const after = source.current();
    this.orderBaseline = after;
    // Another account (or none): its orders are not "gone".
    if (!before || !after || before.account !== after.account) return [];
    const gone = vanishedOrders(before.orders, after.orders);
    const rules = this.o.rules.all().filter((r) => r.kind === 'order_done');
    if (gone.length === 0 || rules.length === 0) return [];
    const done: { order: OrderFact; status: 'filled' | 'cancelled' }[] = [];
    for (const order of gone) {
      const upstream = source.lookup ? await source.lookup(order.id).catch(() => null) : null;
      const status = orderOutcome(order, upstream);
      if (status) done.push({ order, status });
    }
    return this.fire(evaluateOrders(rules, done));
  }

  /** new_match: per rule, the new items after its position that its screen or text matches (each screen or text read once). */
  private matches(rules: readonly StoredRule[], from: number | undefined, upTo: number): Map<string, NewItem[]> {
    const out = new Map<string, NewItem[]>();
    if (from === undefined || from >= upTo) return out;
    const items = this.o.reads.newItemsAfter(from, upTo);
    if (items.length === 0) return out;
    const byKey = new Map<string, NewItem[]>();
    for (const rule of rules) {
      const cursor = rule.state.changeSeq;
      if (cursor === undefined || !items.some((i) => i.seq > cursor)) continue;
      const key = rule.screen !== undefined ? `s:${rule.screen}` : `q:${rule.q ?? ''}`;
      let matched = byKey.get(key);
      if (!matched) {
        const screen = rule.screen !== undefined ? this.o.screen(rule.screen) : undefined;
        matched = screen ? this.o.reads.matchScreen(screen, items) : rule.q ? this.o.reads.matchText(rule.q, items) : [];
        byKey.set(key, matched);
      }
      out.set(
        rule.id,
        matched.filter((i) => i.seq > cursor),
      );
    }
    return out;
  }

  private fire(firings: readonly Firing[]): FiredAlert[] {
    if (firings.length === 0) return [];
    const at = new Date(this.now()).toISOString();
    const fired = firings.map((f): FiredAlert => ({ id: randomBytes(8).toString('hex'), at, ...f }));
    const byId = new Map(this.o.rules.all().map((r) => [r.id, r]));
    for (const f of fired) {
      const rule = byId.get(f.ruleId);
      if (rule) rule.lastFiredAt = at;
    }
    this.o.rules.changed();
    this.o.fired.append(fired);
    for (const fn of this.firedListeners) {
      try {
        fn(fired);
      } catch (e) {
        this.log.warn(`alerts: a listener failed: ${(e as Error).message}`);
      }
    }
    return fired;
  }

  private rulesChanged(): void {
    for (const fn of this.ruleListeners) {
      try {
        fn();
      } catch (e) {
        this.log.warn(`alerts: a listener failed: ${(e as Error).message}`);
      }
    }
  }
}
