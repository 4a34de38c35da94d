/**
 * The neutral image shown when an icon cannot be had (no URL, a broken image, offline and not
 * cached): a grey rounded square that reads as "no picture" in light and dark themes alike.
 */
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="12" fill="#8a8f98" fill-opacity="0.35"/>' +
  '<circle cx="32" cy="26" r="9" fill="#8a8f98" fill-opacity="0.6"/>' +
  '<rect x="16" y="40" width="32" height="8" rx="4" fill="#8a8f98" fill-opacity="0.6"/></svg>';

export const PLACEHOLDER_TYPE = 'image/svg+xml';
export const PLACEHOLDER_BYTES: Uint8Array = new TextEncoder().encode(SVG);
/** Short: the real icon may arrive once the network is back or a retry succeeds. */
export const PLACEHOLDER_CACHE_CONTROL = 'max-age=30';
