/**
 * Changes to the fake catalog between syncs, as a real catalog changes: prices and liquidity
 * move, markets and events open, close and resolve, rules, end dates, titles and tags are
 * edited. Each goes through FakeCatalog's update/add methods, so the item gets a newer
 * `updatedAt` and an incremental sync sees it. Tests call `mutate`; e2e runs and the demo post
 * the same objects to `POST /_fake/mutate` (server.ts).
 */
import { createHash } from 'node:crypto';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';
import type { FakeCatalog } from './catalog.ts';
import { positionIdsOf } from './protocol-versions.ts';

export type Mutation =
  /** The first outcome's price (the second gets 1 - price); bid, ask and last trade follow. */
  | { op: 'price'; id: string; price: number }
  | { op: 'liquidity'; id: string; liquidity: number }
  | { op: 'close'; id: string }
  /** Closes the market with outcome `winner` (index) at 1 and UMA's status resolved. */
  | { op: 'resolve'; id: string; winner: number }
  | { op: 'rules'; kind?: 'market' | 'event'; id: string; description?: string; resolutionSource?: string }
  | { op: 'endDate'; kind?: 'market' | 'event'; id: string; endDate: string }
  | { op: 'title'; kind?: 'market' | 'event'; id: string; title: string }
  /** The event's tags, by slug (each must be a known tag). */
  | { op: 'tags'; id: string; tags: string[] }
  /** A new open market (a copy of `like`'s fields, or of the event's first market) in event `eventId`. */
  | { op: 'openMarket'; id: string; eventId: string; question?: string; price?: number; like?: string }
  /** A new open event (a copy of `like`'s fields) with one new market `marketId`. */
  | { op: 'openEvent'; id: string; like: string; marketId: string; title?: string };

export interface MutationResult {
  op: Mutation['op'];
  id: string;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new MutationError(`unknown ${what}`);
  return v;
}

export class MutationError extends Error {}

/** Told of each mutation after it was applied (the market channel's `new_market` and `market_resolved`). */
export type MutationListener = (m: Mutation, catalog: FakeCatalog) => void;

const listeners = new WeakMap<FakeCatalog, Set<MutationListener>>();

/** Calls `fn` after every mutation applied to `catalog` (by `mutate` or `POST /_fake/mutate`); returns the unsubscribe. */
export function onMutation(catalog: FakeCatalog, fn: MutationListener): () => void {
  let set = listeners.get(catalog);
  if (!set) {
    set = new Set();
    listeners.set(catalog, set);
  }
  set.add(fn);
  return () => set.delete(fn);
}

function storedMarket(catalog: FakeCatalog, id: string): GammaMarket {
  return need(catalog.marketRecord(id), `market ${id}`).obj;
}

function checkPrice(p: unknown): number {
  if (typeof p !== 'number' || !(p >= 0 && p <= 1)) throw new MutationError('price must be a number between 0 and 1');
  return p;
}

/** Applies one change; throws MutationError for a change that names nothing the catalog has. */
export function mutate(catalog: FakeCatalog, m: Mutation): MutationResult {
  const edit = (kind: 'market' | 'event' | undefined, id: string, patch: Record<string, unknown>) => {
    if (kind === 'event') {
      need(catalog.eventRecord(id), `event ${id}`);
      catalog.updateEvent(id, patch as Partial<GammaEvent>);
    } else {
      need(catalog.marketRecord(id), `market ${id}`);
      catalog.updateMarket(id, patch as Partial<GammaMarket>);
    }
  };
  switch (m.op) {
    case 'price': {
      const p = checkPrice(m.price);
      need(catalog.marketRecord(m.id), `market ${m.id}`);
      catalog.updateMarket(m.id, {
        outcomePrices: JSON.stringify([String(p), String(round(1 - p))]),
        lastTradePrice: p,
        bestBid: round(Math.max(0, p - 0.01)),
        bestAsk: round(Math.min(1, p + 0.01)),
      });
      break;
    }
    case 'liquidity':
      if (typeof m.liquidity !== 'number' || !(m.liquidity >= 0)) throw new MutationError('liquidity must be a number >= 0');
      edit('market', m.id, { liquidity: String(m.liquidity), liquidityNum: m.liquidity });
      break;
    case 'close':
      edit('market', m.id, { closed: true, acceptingOrders: false, closedTime: new Date().toISOString() });
      break;
    case 'resolve': {
      const outcomes = JSON.parse(String(storedMarket(catalog, m.id).outcomes ?? '[]')) as unknown[];
      if (!Number.isInteger(m.winner) || m.winner < 0 || m.winner >= outcomes.length)
        throw new MutationError('winner is not an outcome index');
      edit('market', m.id, {
        closed: true,
        acceptingOrders: false,
        closedTime: new Date().toISOString(),
        umaResolutionStatus: 'resolved',
        outcomePrices: JSON.stringify(outcomes.map((_, i) => (i === m.winner ? '1' : '0'))),
      });
      break;
    }
    case 'rules':
      edit(m.kind, m.id, {
        ...(m.description !== undefined ? { description: m.description } : {}),
        ...(m.resolutionSource !== undefined ? { resolutionSource: m.resolutionSource } : {}),
      });
      break;
    case 'endDate':
      edit(m.kind, m.id, { endDate: m.endDate });
      break;
    case 'title':
      edit(m.kind, m.id, m.kind === 'event' ? { title: m.title } : { question: m.title });
      break;
    case 'tags': {
      const tags: GammaTag[] = m.tags.map((slug) => need(catalog.tagBySlug(slug), `tag ${slug}`));
      edit('event', m.id, { tags });
      break;
    }
    case 'openMarket': {
      const event = need(catalog.eventRecord(m.eventId), `event ${m.eventId}`);
      const likeId = m.like ?? event.marketIds[0];
      catalog.addMarket(newMarket(storedMarket(catalog, need(likeId, 'market to copy')), m.id, m.question, m.price), {
        eventId: m.eventId,
      });
      break;
    }
    case 'openEvent': {
      const like = need(catalog.eventRecord(m.like), `event ${m.like}`).obj;
      const template = storedMarket(catalog, need(catalog.eventRecord(m.like)!.marketIds[0], `a market of event ${m.like}`));
      const title = m.title ?? `${String(like.title ?? 'Event')} (${m.id})`;
      const { markets: _markets, createdAt: _created, ...rest } = like as GammaEvent & { markets?: unknown };
      catalog.addEvent({
        ...rest,
        id: m.id,
        slug: `${String(like.slug ?? 'event')}-${m.id}`,
        title,
        closed: false,
        active: true,
        markets: [newMarket(template, m.marketId, `${title}?`, undefined)],
      } as GammaEvent);
      break;
    }
    default:
      throw new MutationError(`unknown op ${(m as { op?: unknown }).op}`);
  }
  for (const fn of listeners.get(catalog) ?? []) fn(m, catalog);
  return { op: m.op, id: m.id };
}

function newMarket(template: GammaMarket, id: string, question: string | undefined, price: number | undefined): GammaMarket {
  const { events: _events, createdAt: _created, ...rest } = template;
  const p = price === undefined ? 0.5 : checkPrice(price);
  const q = question ?? `${String(template.question ?? 'Market')} (${id})`;
  const conditionId = `0x${id.padStart(64, '0')}`;
  return {
    ...rest,
    ...newTradingIds(template, id, conditionId),
    id,
    question: q,
    slug: `${String(template.slug ?? 'market')}-${id}`,
    conditionId,
    closed: false,
    active: true,
    acceptingOrders: true,
    umaResolutionStatus: undefined,
    closedTime: undefined,
    outcomePrices: JSON.stringify([String(p), String(round(1 - p))]),
  } as GammaMarket;
}

/**
 * A new market's own outcome ids, of the kinds its template carries: CTF token ids (`clobTokenIds`,
 * decimal, from a hash of the market id) and Protocol V2 position ids (from its condition id), so
 * its books are its own, not the template's.
 */
function newTradingIds(template: GammaMarket, id: string, conditionId: string): Partial<GammaMarket> {
  let outcomes = 2;
  try {
    const o: unknown = JSON.parse(String(template.outcomes ?? '[]'));
    if (Array.isArray(o) && o.length > 0) outcomes = o.length;
  } catch {
    // two outcomes
  }
  const out: Record<string, unknown> = {};
  if (typeof template.clobTokenIds === 'string') {
    const tokens = Array.from({ length: outcomes }, (_, i) =>
      BigInt(`0x${createHash('sha256').update(`token:${id}:${i}`).digest('hex')}`).toString(),
    );
    out['clobTokenIds'] = JSON.stringify(tokens);
  }
  if (Array.isArray((template as Record<string, unknown>)['positionIds'])) out['positionIds'] = positionIdsOf(conditionId, id, outcomes);
  return out as Partial<GammaMarket>;
}

/** The body of `POST /_fake/mutate`: one mutation or a list, applied in order. */
export const MUTATE_PATH = '/_fake/mutate';

export function mutateBody(catalog: FakeCatalog, body: string): { status: number; body: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { status: 400, body: JSON.stringify({ error: 'the body is not JSON' }) };
  }
  const list = (Array.isArray(parsed) ? parsed : [parsed]) as Mutation[];
  const applied: MutationResult[] = [];
  try {
    for (const m of list) applied.push(mutate(catalog, m));
  } catch (e) {
    if (!(e instanceof MutationError)) throw e;
    return { status: 400, body: JSON.stringify({ error: e.message, applied }) };
  }
  return { status: 200, body: JSON.stringify({ applied }) };
}
