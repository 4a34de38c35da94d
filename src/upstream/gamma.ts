/**
 * Gamma paging, with the real API's quirks (docs/upstream/gamma.md): limit clamped at 100, offset
 * capped near 2,000 (so deep walks use /markets/keyset and /events/keyset with after_cursor),
 * array filters as repeated keys. Upstreams without keyset routes are walked by offset.
 */
import { UpstreamError, type QueryValue, type RequestOptions, type UpstreamClient } from './client.ts';
import type { GammaEvent, GammaMarket, GammaTag } from '../contract/gamma.ts';

export const PAGE_SIZE = 100;
/** Gamma answers 422 above about this offset; an offset walk stops here. */
export const OFFSET_CAP = 2000;

export type Kind = 'markets' | 'events';
type Item<K extends Kind> = K extends 'markets' ? GammaMarket : GammaEvent;

/** Where a walk stands: a keyset cursor, or an offset on upstreams without keyset routes. */
export type WalkPosition = { cursor: string } | { offset: number };

/**
 * A page handler; returning false stops the walk after this page. `next` is where the walk goes
 * on from after this page (what to save to resume it later), or null when this page was the last.
 */
export type PageHandler<T> = (items: T[], next: WalkPosition | null) => undefined | boolean | Promise<undefined | boolean>;

/** How a walk ended: the listing's end, the handler's stop, or the offset cap (`capped` walks only). */
export interface WalkResult {
  pages: number;
  items: number;
  ended: 'end' | 'stopped' | 'capped';
}

export interface WalkOptions {
  filters?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** Reaching the offset cap ends the walk quietly instead of failing it (best-effort reads). */
  capped?: boolean;
  /**
   * A page failed after the client's own retries: resolve true (after any wait) to fetch that
   * same page again, from its cursor or offset, so the pages before it are not read twice;
   * false fails the walk. `stalls` counts this page's failures in a row.
   */
  resume?: (error: unknown, stalls: number) => Promise<boolean>;
  /** Start here (a `next` handed to an earlier walk's handler) rather than at the beginning. */
  from?: WalkPosition;
}

function isArrayOf(v: unknown): v is Record<string, unknown>[] {
  return Array.isArray(v) && v.every((x) => x !== null && typeof x === 'object');
}

function expectItems<T>(body: unknown, what: string): T[] {
  if (!isArrayOf(body)) throw new UpstreamError(`${what}: expected a JSON array`, 200, body);
  return body as T[];
}

export class GammaApi {
  /** Learned once: whether this upstream has the keyset routes. */
  private keyset: boolean | undefined;

  /** `defaults` go on every request (sync passes `priority: 'background'`). */
  constructor(
    private readonly client: UpstreamClient,
    private readonly defaults: Pick<RequestOptions, 'priority'> = {},
  ) {}

  /**
   * Walks every page of a listing in id order, handing each page to `onPage` while the next
   * one is already being fetched. Keyset routes when the upstream has them, offset otherwise.
   */
  async walk<K extends Kind>(kind: K, opts: WalkOptions, onPage: PageHandler<Item<K>>): Promise<WalkResult> {
    if (this.keyset !== false) {
      try {
        return await this.walkKeyset(kind, opts, onPage);
      } catch (e) {
        // 404/405/501/503: no keyset here (Gamma answers 503 "keyset pagination is not configured").
        if (!(e instanceof UpstreamError) || ![404, 405, 501, 503].includes(e.status ?? 0) || this.keyset === true) throw e;
        this.keyset = false;
      }
    }
    return this.walkOffset(kind, opts, onPage);
  }

  private async walkKeyset<K extends Kind>(kind: K, opts: WalkOptions, onPage: PageHandler<Item<K>>): Promise<WalkResult> {
    // Aborts the prefetched page when the handler stops the walk early.
    const stop = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
    const fetchPage = (cursor: string | undefined) =>
      this.client.request<Record<string, unknown>>('gamma', `/${kind}/keyset`, {
        query: { ...opts.filters, limit: PAGE_SIZE, after_cursor: cursor },
        group: `GET /${kind}`,
        ...this.defaults,
        signal,
      });
    let pages = 0;
    let items = 0;
    /** The cursor of the page being fetched: where the walk resumes if that page fails. */
    let at: string | undefined = opts.from && 'cursor' in opts.from ? opts.from.cursor : undefined;
    let next: Promise<Record<string, unknown>> | undefined = fetchPage(at);
    const seenCursors = new Set<string>();
    let stalls = 0;
    while (next) {
      let body: Record<string, unknown>;
      try {
        body = await next;
      } catch (e) {
        if (!(await this.resumes(opts, e, ++stalls, signal))) throw e;
        next = fetchPage(at);
        next.catch(() => {});
        continue;
      }
      stalls = 0;
      this.keyset = true;
      const list = expectItems<Item<K>>(body?.[kind], `/${kind}/keyset`);
      const raw: unknown = body['next_cursor'];
      const cursor = typeof raw === 'string' ? raw : '';
      // A repeated cursor would loop forever; an empty page means the end whatever the cursor says.
      const more = cursor !== '' && list.length > 0 && !seenCursors.has(cursor);
      if (more) seenCursors.add(cursor);
      // Fetch the next page while this one is written.
      at = cursor;
      next = more ? fetchPage(cursor) : undefined;
      next?.catch(() => {});
      pages++;
      items += list.length;
      if ((await onPage(list, more ? { cursor } : null)) === false) {
        stop.abort(new Error('walk stopped'));
        return { pages, items, ended: 'stopped' };
      }
    }
    return { pages, items, ended: 'end' };
  }

  private async walkOffset<K extends Kind>(kind: K, opts: WalkOptions, onPage: PageHandler<Item<K>>): Promise<WalkResult> {
    let pages = 0;
    let items = 0;
    const start = opts.from && 'offset' in opts.from ? opts.from.offset : 0;
    for (let offset = start, stalls = 0; offset <= OFFSET_CAP; offset += PAGE_SIZE) {
      let list: Item<K>[];
      try {
        list = await this.page(kind, { order: 'id', ascending: true, ...opts.filters, offset }, opts.signal);
      } catch (e) {
        if (!(await this.resumes(opts, e, ++stalls, opts.signal))) throw e;
        offset -= PAGE_SIZE;
        continue;
      }
      stalls = 0;
      pages++;
      items += list.length;
      const last = list.length < PAGE_SIZE;
      if (list.length > 0 && (await onPage(list, last ? null : { offset: offset + PAGE_SIZE })) === false)
        return { pages, items, ended: 'stopped' };
      if (last) return { pages, items, ended: 'end' };
    }
    if (opts.capped) return { pages, items, ended: 'capped' };
    throw new UpstreamError(`/${kind}: more than ${OFFSET_CAP} items and no keyset route; the catalog is incomplete`, null);
  }

  /** Whether a walk fetches its failed page again: never once stopped, nor when the page is refused (a 4xx). */
  private async resumes(opts: WalkOptions, e: unknown, stalls: number, signal: AbortSignal | undefined): Promise<boolean> {
    if (!opts.resume || signal?.aborted) return false;
    if (e instanceof UpstreamError && e.status !== null && e.status < 500 && e.status !== 429) return false;
    return opts.resume(e, stalls);
  }

  /** One page of a plain listing (`/markets` or `/events`). */
  async page<K extends Kind>(kind: K, query: Record<string, QueryValue>, signal?: AbortSignal): Promise<Item<K>[]> {
    const body = await this.client.request<unknown>('gamma', `/${kind}`, {
      query: { limit: PAGE_SIZE, ...query },
      group: `GET /${kind}`,
      ...this.defaults,
      ...(signal ? { signal } : {}),
    });
    return expectItems<Item<K>>(body, `/${kind}`);
  }

  /** The given ids (in chunks of 100 repeated `id` keys, well under Gamma's URL limit). */
  async byIds<K extends Kind>(
    kind: K,
    ids: readonly number[],
    query: Record<string, QueryValue>,
    signal?: AbortSignal,
  ): Promise<Item<K>[]> {
    const out: Item<K>[] = [];
    for (let i = 0; i < ids.length; i += PAGE_SIZE) {
      const chunk = ids.slice(i, i + PAGE_SIZE);
      out.push(...(await this.page(kind, { ...query, id: chunk }, signal)));
    }
    return out;
  }

  /** Every tag (any offset works on /tags). */
  async tags(signal?: AbortSignal): Promise<GammaTag[]> {
    const out: GammaTag[] = [];
    const seen = new Set<string>();
    for (let offset = 0; offset < 100_000; offset += PAGE_SIZE) {
      const body = await this.client.request<unknown>('gamma', '/tags', {
        query: { limit: PAGE_SIZE, offset },
        group: 'GET /tags',
        ...this.defaults,
        ...(signal ? { signal } : {}),
      });
      const list = expectItems<GammaTag>(body, '/tags');
      let fresh = 0;
      for (const t of list) {
        if (seen.has(String(t.id))) continue;
        seen.add(String(t.id));
        out.push(t);
        fresh++;
      }
      // An upstream that ignores offset repeats its page; stop instead of looping.
      if (list.length < PAGE_SIZE || fresh === 0) break;
    }
    return out;
  }
}
