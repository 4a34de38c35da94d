/**
 * A cached order in each dialect (dispatch.ts's Dialect): the spec's camelCase Order, or
 * Polymarket's own CLOB object (docs/upstream/clob-data-limits.md §2.5) for `POLY_*` callers.
 */
import type { Credentials } from '../auth/credentials.ts';
import type { Order, PolymarketOrder } from '../contract/orders-ops.ts';
import type { CachedOrder } from '../store/orders-store.ts';

/** The spec's fields only: what the cache keeps beyond them is Polymarket's business. */
export function specOrder(o: CachedOrder): Order {
  const { expiration: _, ...order } = o;
  return order;
}

/**
 * Polymarket's order, converted back exactly: the cache keeps the upstream's decimal strings
 * as sent, `created_at` came in as seconds, and the sync put the address in place of the API key.
 */
export function polymarketOrder(o: CachedOrder, creds: Credentials): PolymarketOrder {
  const created = Date.parse(o.createdAt);
  return {
    id: o.id,
    status: o.status.toUpperCase(),
    owner: o.owner.toLowerCase() === creds.address.toLowerCase() ? creds.apiKey : o.owner,
    maker_address: o.makerAddress,
    market: o.market,
    asset_id: o.assetId,
    side: o.side,
    original_size: o.originalSize,
    size_matched: o.sizeMatched,
    price: o.price,
    outcome: o.outcome,
    expiration: o.expiration,
    order_type: o.type,
    associate_trades: o.associateTrades,
    created_at: Number.isFinite(created) ? Math.floor(created / 1000) : 0,
  };
}
