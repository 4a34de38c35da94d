/**
 * Host names and origins the loopback faces accept. Plain functions, no Fastify or Node
 * import: the CLI, the desktop settings (main/) and the settings dialog (renderer/) all use
 * the same rules.
 */

/** At most this many extra origins: a setting, not a database. */
export const MAX_ALLOWED_ORIGINS = 32;

/**
 * `scheme://host[:port]` as a browser sends it in `Origin` (lower case, default port left
 * out, IPv6 in brackets), or undefined for anything else: another scheme, a path, a query,
 * user info, or `null`.
 */
export function normalizeOrigin(text: string): string | undefined {
  const s = text.trim();
  // The URL parser would quietly drop a path, so anything after the authority is refused here.
  const m = /^(https?):\/\/([^/?#\s@]+)\/?$/i.exec(s);
  if (!m) return undefined;
  let url: URL;
  try {
    url = new URL(s);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.hostname === '') return undefined;
  return url.origin;
}

/** Normalizes every entry; throws naming the first that is not an origin. */
export function parseAllowedOrigins(list: readonly string[]): string[] {
  if (list.length > MAX_ALLOWED_ORIGINS) throw new Error(`at most ${MAX_ALLOWED_ORIGINS} allowed origins`);
  const out = new Set<string>();
  for (const entry of list) {
    const origin = normalizeOrigin(entry);
    if (origin === undefined) throw new Error(`not an origin (scheme://host[:port], no path): ${JSON.stringify(entry)}`);
    out.add(origin);
  }
  return [...out];
}

/**
 * The host name of a `Host` header value (`name[:port]`, IPv6 in brackets), lower case and
 * brackets kept (`[::1]`), or undefined when it is not one.
 */
export function hostHeaderName(value: string): string | undefined {
  if (!/^[^/?#\s@\\]+$/.test(value)) return undefined;
  try {
    const url = new URL(`http://${value}`);
    return url.username || url.password ? undefined : url.hostname;
  } catch {
    return undefined;
  }
}

/** A bind address (`--host`) as it appears in a Host header: `::1` becomes `[::1]`. */
export function bindHostName(host: string): string | undefined {
  return hostHeaderName(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Addresses that listen on every interface. */
export function isWildcardHost(host: string): boolean {
  const name = bindHostName(host);
  return name === '0.0.0.0' || name === '[::]';
}

/**
 * Whether a Host header's name (from hostHeaderName) may reach a face bound to `bindHost`.
 * DNS rebinding needs a name that resolves to this machine, so names are limited to
 * `localhost` and the configured one. An IP literal cannot be rebound (the page would have
 * to be served from that address): loopback ones are always accepted, and any when the
 * faces listen on every interface.
 */
export function hostAllowed(name: string, bindHost: string): boolean {
  if (name === 'localhost' || name === '[::1]' || name === bindHostName(bindHost)) return true;
  if (IPV4.test(name)) return name.startsWith('127.') || isWildcardHost(bindHost);
  return name.startsWith('[') && isWildcardHost(bindHost);
}
