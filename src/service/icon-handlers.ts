/**
 * `icons.get`: a market's or event's icon from the icon cache, or the neutral placeholder.
 * Never a 5xx: whatever goes wrong with the image, the caller gets a picture; only an unknown
 * kind or id is the spec's 404.
 */
import { notFound, rawBody, type RawBody } from '../contract/index.ts';
import type { iconsOperations } from '../contract/icons-ops.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import type { Store } from '../store/store-api.ts';
import { ICON_CACHE_CONTROL, ICON_WAIT_MS, type IconSource } from '../icons/icon-source.ts';
import { PLACEHOLDER_BYTES, PLACEHOLDER_CACHE_CONTROL, PLACEHOLDER_TYPE } from '../icons/placeholder.ts';

function sourceUrl(store: Pick<Store, 'reader'>, kind: string, id: string): string | undefined {
  if (kind !== 'market' && kind !== 'event') throw notFound('route');
  if (!/^\d{1,15}$/.test(id)) throw notFound('id');
  const item = kind === 'market' ? store.reader.getMarket(Number(id)) : store.reader.getEvent(Number(id));
  if (!item) throw notFound('id');
  const url = item.icon || item.image;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** The placeholder; while the icon is still being fetched, not stored at all, so the next showing asks again. */
export function placeholderBody(pending = false): RawBody {
  return rawBody(PLACEHOLDER_TYPE, PLACEHOLDER_BYTES, { 'cache-control': pending ? 'no-store' : PLACEHOLDER_CACHE_CONTROL });
}

export function iconHandlers(
  store: Pick<Store, 'reader'>,
  icons: IconSource | undefined,
  /** Whether a picture URL may be fetched (source-policy.ts); a refused one gets the placeholder. */
  allowed: (url: string) => boolean = () => true,
  waitMs = ICON_WAIT_MS,
): HandlersFor<keyof typeof iconsOperations> {
  return {
    'icons.get': async (p, ctx) => {
      const found = sourceUrl(store, p.kind, p.id);
      const url = found !== undefined && allowed(found) ? found : undefined;
      const hit = url && icons ? await icons.get(url, { waitMs, ...(ctx.signal ? { signal: ctx.signal } : {}) }) : null;
      if (hit === null || hit === 'pending') return placeholderBody(hit === 'pending');
      return rawBody(hit.contentType, hit.bytes, { 'cache-control': ICON_CACHE_CONTROL, etag: `"${hit.hash.slice(0, 32)}"` });
    },
  };
}
