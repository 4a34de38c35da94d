/**
 * One L2 signature check per request, shared by the rate limiter (which keys an authenticated
 * route on the identity the signature proves) and the route handler (which answers 401).
 */
import type { FastifyRequest } from 'fastify';
import type { L2Request } from '../auth/l2.ts';

export interface L2Identity {
  /** Whether the request carries a valid L2 signature (needs the body read, so a preHandler or later). */
  authenticated(req: FastifyRequest): boolean;
  /** The API key the signature proved; undefined for a request that does not verify. */
  verifiedKey(req: FastifyRequest): string | undefined;
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
  return {
    authenticated,
    verifiedKey(req) {
      if (!authenticated(req)) return undefined;
      const poly = one(req.headers['poly_api_key']);
      const kuest = one(req.headers['kuest_api_key']);
      if (poly === undefined || kuest === undefined || poly === kuest) return poly ?? kuest;
      // Both families with different keys: only the one that signed names the account, or a
      // client could pick its limiter bucket with the other.
      const polyOnly = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith('kuest_')));
      return authenticate!(l2Request(req, polyOnly)) ? poly : kuest;
    },
  };
}
