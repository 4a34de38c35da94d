/**
 * Which picture URLs the service may fetch. The catalog names them, and a catalog is whatever
 * site the profile points at, so a URL must not turn the service into a way to reach the user's
 * own machine or network: http(s) only, and no loopback, private or link-local host unless the
 * catalog itself is served from such a host (a local or test upstream, `npm run demo`).
 */
import { isIP } from 'node:net';

function isLocalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h === '') return true;
  const family = isIP(h);
  if (family === 4) {
    const [a, b] = h.split('.').map(Number) as [number, number];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  if (family === 6) {
    if (h === '::1' || h === '::') return true;
    // An IPv4-mapped address (the URL parser writes ::ffff:127.0.0.1 as ::ffff:7f00:1).
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
    if (mapped) {
      const [hi, lo] = [Number.parseInt(mapped[1]!, 16), Number.parseInt(mapped[2]!, 16)];
      return isLocalHost(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
    }
    const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    if (dotted) return isLocalHost(dotted[1]!);
    return /^(fc|fd|fe8|fe9|fea|feb)/.test(h);
  }
  return false;
}

/** A policy for the configured upstream: `allowed(url)` says whether a picture URL may be fetched. */
export function iconSourcePolicy(upstreams: readonly string[]): (url: string) => boolean {
  const localUpstream = upstreams.some((u) => {
    try {
      return isLocalHost(new URL(u).hostname);
    } catch {
      return false;
    }
  });
  return (url) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return false;
    if (u.username || u.password) return false;
    return localUpstream || !isLocalHost(u.hostname);
  };
}
