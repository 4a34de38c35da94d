/**
 * The upstream CLOB WebSocket host as a setting (`--clob-ws-url` on `serve`, the desktop app's
 * settings): its channels are at `<host>/ws/market` and `<host>/ws/user`. Plain functions, no
 * Node import: the desktop settings (main/) and the settings dialog (renderer/) use the same rule.
 */

/** Said to the user when a host is refused. */
export const WS_HOST_RULE = 'a ws:// or wss:// URL such as wss://ws-subscriptions-clob.polymarket.com, or empty for the default';

/**
 * The host as kept (trimmed, scheme in lower case, trailing slashes dropped), or undefined when
 * it is not a ws:// or wss:// URL with a host name. A path prefix is kept (the channels go under
 * it); a query, a fragment or user info is refused, as the channel path could not follow them.
 */
export function normalizeWsHost(text: string): string | undefined {
  const s = text.trim().replace(/\/+$/, '');
  if (!/^wss?:\/\/[^/?#\s@\\]+(\/[^?#\s\\]*)?$/i.test(s)) return undefined;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return undefined;
  }
  if (url.hostname === '' || url.username || url.password) return undefined;
  return s.replace(/^wss?:/i, (scheme) => scheme.toLowerCase());
}
