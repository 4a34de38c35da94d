/**
 * The upstream CLOB's `GET /data/orders`: every page of the account's open orders, L2-signed,
 * normalised from Polymarket's snake_case (docs/upstream/clob-data-limits.md §2) to the spec's Order.
 */
import { l2Headers, type HeaderFamily } from '../auth/l2.ts';
import type { Credentials } from '../auth/credentials.ts';
import { FIRST_CURSOR, type Order } from '../contract/orders-ops.ts';
import { buildUrl, type UpstreamClient } from './client.ts';

/** Polymarket ends with `LTE=` (base64 "-1"); Kuest's documents say `""`; some answers leave it out. */
export function isEndCursor(c: unknown): boolean {
  return c === undefined || c === null || c === '' || c === 'LTE=';
}

/** A page chain longer than this is a misbehaving upstream, not an account. */
const MAX_PAGES = 10_000;

type Raw = Record<string, unknown>;

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return '';
}

/** Either spelling: Polymarket's snake_case or Kuest's camelCase. */
function field(o: Raw, snake: string, camel: string): unknown {
  return o[snake] ?? o[camel];
}

/** Epoch seconds (number or digit string), epoch ms, or a date string, as ISO; '' when unreadable. */
export function isoTime(v: unknown): string {
  let ms: number;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d{1,16}$/.test(v))) {
    const n = Number(v);
    // Seconds until the year 5138; larger values are milliseconds.
    ms = n < 1e11 ? n * 1000 : n;
  } else if (typeof v === 'string' && v !== '') {
    ms = Date.parse(v);
  } else {
    return '';
  }
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : '';
}

/** `LIVE`, `ORDER_STATUS_LIVE`, `live` -> `live` (docs/architecture.md, "Decisions": order status values). */
export function normalizeStatus(v: unknown): string {
  return text(v)
    .trim()
    .replace(/^ORDER_STATUS_/i, '')
    .toLowerCase();
}

/** One upstream order as the spec's Order; null when it has no id (nothing to key it by). */
export function normalizeOrder(o: unknown): Order | null {
  if (!o || typeof o !== 'object') return null;
  const r = o as Raw;
  const id = text(r['id']);
  if (id === '') return null;
  const createdAt = isoTime(field(r, 'created_at', 'createdAt'));
  const trades = field(r, 'associate_trades', 'associateTrades');
  return {
    id,
    status: normalizeStatus(r['status']),
    market: text(r['market']),
    assetId: text(field(r, 'asset_id', 'assetId')),
    outcome: text(r['outcome']),
    makerAddress: text(field(r, 'maker_address', 'makerAddress')),
    owner: text(r['owner']),
    price: text(r['price']),
    originalSize: text(field(r, 'original_size', 'originalSize')),
    sizeMatched: text(field(r, 'size_matched', 'sizeMatched')),
    side: text(r['side']).toUpperCase(),
    type: text(field(r, 'order_type', 'type') ?? r['orderType']).toUpperCase(),
    associateTrades: Array.isArray(trades) ? trades.map(text).filter((t) => t !== '') : [],
    createdAt,
    updatedAt: isoTime(field(r, 'updated_at', 'updatedAt')) || createdAt,
  };
}

export interface FetchOrdersOptions {
  family?: HeaderFamily;
  now?: () => number;
  signal?: AbortSignal;
}

/** Every open order of the account, following `next_cursor` to the end. */
export async function fetchOpenOrders(
  client: UpstreamClient,
  creds: Credentials,
  opts: FetchOrdersOptions = {},
): Promise<(Order & { expiration: string })[]> {
  const now = opts.now ?? Date.now;
  // The signature covers the URL's path as sent, so a CLOB behind a path prefix still verifies.
  const signedPath = new URL(buildUrl(client.urls.clob, '/data/orders')).pathname;
  const out: (Order & { expiration: string })[] = [];
  const ids = new Set<string>();
  const seen = new Set<string>();
  let cursor = FIRST_CURSOR;
  for (let page = 0; page < MAX_PAGES; page++) {
    seen.add(cursor);
    const headers = l2Headers(
      creds,
      { method: 'GET', path: signedPath },
      { nowMs: now(), ...(opts.family ? { family: opts.family } : {}) },
    );
    const body = await client.request<unknown>('clob', '/data/orders', {
      query: { next_cursor: cursor },
      headers,
      group: 'GET /data/orders',
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    if (!body || typeof body !== 'object' || !Array.isArray((body as Raw)['data'])) {
      throw new Error('upstream /data/orders answered without a data array');
    }
    for (const item of (body as Raw)['data'] as unknown[]) {
      const order = normalizeOrder(item);
      // An order that moved between pages while we walked them is kept once.
      if (order && !ids.has(order.id)) {
        ids.add(order.id);
        // Kept for Polymarket's dialect, which serves it; the spec's Order has no such field.
        out.push({ ...order, expiration: text((item as Raw)['expiration']) || '0' });
      }
    }
    const next = (body as Raw)['next_cursor'];
    if (isEndCursor(next)) return out;
    if (typeof next !== 'string' || seen.has(next)) throw new Error('upstream /data/orders returned a cursor that does not advance');
    cursor = next;
  }
  throw new Error(`upstream /data/orders did not end within ${MAX_PAGES} pages`);
}

/**
 * One order from the upstream's `GET /data/order/{id}` (signed over the full path, id included),
 * normalised as the list's are; null when the upstream has no such order.
 */
export async function fetchOrder(
  client: UpstreamClient,
  creds: Credentials,
  id: string,
  opts: FetchOrdersOptions = {},
): Promise<(Order & { expiration: string }) | null> {
  const path = `/data/order/${encodeURIComponent(id)}`;
  const signedPath = new URL(buildUrl(client.urls.clob, path)).pathname;
  const headers = l2Headers(
    creds,
    { method: 'GET', path: signedPath },
    { nowMs: (opts.now ?? Date.now)(), ...(opts.family ? { family: opts.family } : {}) },
  );
  const body = await client.request<unknown>('clob', path, {
    headers,
    group: 'GET /data/order/:id',
    priority: 'user',
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  const order = normalizeOrder(body);
  return order ? { ...order, expiration: text((body as Raw)['expiration']) || '0' } : null;
}
