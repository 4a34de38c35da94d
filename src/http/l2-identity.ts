/**
 * One L2 signature check per request, shared by the rate limiter (which keys an authenticated
 * route on the identity the signature proves) and the route handler (which answers 401).
 */
import type { FastifyRequest } from 'fastify';
import type { HeaderFamily, L2Request } from '../auth/l2.ts';

export interface L2Identity {
  /** Whether the request carries a valid L2 signature (needs the body read, so a preHandler or later). */
  authenticated(req: FastifyRequest): boolean;
  /** The API key the signature proved; undefined for a request that does not verify. */
  verifiedKey(req: FastifyRequest): string | undefined;
  /** The header family whose signature verified (which ecosystem the caller is from); undefined when none did. */
  family(req: FastifyRequest): HeaderFamily | undefined;
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function l2Request(req: FastifyRequest, headers: L2Request['headers'] = req.headers): L2Request {
  // The signature covers the body as sent (empty for GET).
  return { method: req.method, path: req.url, headers, ...(typeof req.body === 'string' ? { body: req.body } : {}) };
}

export function l2Identity(authenticate: ((req: L2Request) => boolean) | undefined): L2Identity {
  const seen = new WeakMap<FastifyRequest, boolean>();
  const authenticated = (req: FastifyRequest): boolean => {
    let ok = seen.get(req);
    if (ok === undefined) {
      ok = !!authenticate?.(l2Request(req));
      seen.set(req, ok);
    }
    return ok;
  };
  const families = new WeakMap<FastifyRequest, HeaderFamily>();
  const family = (req: FastifyRequest): HeaderFamily | undefined => {
    if (!authenticated(req)) return undefined;
    let f = families.get(req);
    if (f === undefined) {
      const has = (prefix: string) => Object.keys(req.headers).some((name) => name.startsWith(prefix));
      if (!has('kuest_')) f = 'POLY';
      else if (!has('poly_')) f = 'KUEST';
      else {
        // Both families present: only the one that signed counts, or a client could pick its
        // limiter bucket or its dialect with the other.
        const polyOnly = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith('kuest_')));
        f = authenticate!(l2Request(req, polyOnly)) ? 'POLY' : 'KUEST';
      }
      families.set(req, f);
    }
    return f;
  };
  return {
    authenticated,
    family,
    verifiedKey(req) {
      const f = family(req);
      return f === undefined ? undefined : one(req.headers[f === 'POLY' ? 'poly_api_key' : 'kuest_api_key']);
    },
  };
}
