/**
 * What a loopback face answers at all, decided in one onRequest hook registered before the
 * rate limiter, so a refused request is never counted (docs/api-guide.md, Security):
 *
 * - `Host` must name this machine (origins.ts hostAllowed): a page served from another name
 *   that DNS rebinding pointed here gets 403. A request without Host (HTTP/1.0; browsers always
 *   send one) is let through, as Jupyter (through Tornado) does.
 * - A browser request from another site gets 403: a foreign `Origin`, or no Origin and
 *   `Sec-Fetch-Site` other than `same-origin`/`none` (a no-cors GET from another page). Only a
 *   top-level navigation to the web UI is let through from elsewhere (Fetch Metadata's resource
 *   isolation policy allows navigations). Clients that send neither header (curl, scripts,
 *   the official CLOB clients) are not browsers and pass. Origins given with `--allow-origin`
 *   pass too, with CORS headers and their preflights answered here.
 * - A POST, or any request with a body, takes `application/json` only (415 otherwise): other
 *   types are "simple" requests that no browser preflights. One exception: a POST with no body and
 *   no content type to an L1- or L2-authenticated route, whose auth headers need a preflight.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hostAllowed, hostHeaderName } from '../contract/origins.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs L1 or L2 auth headers (routes.ts `auth`). */
    signed?: boolean;
  }
}

export interface GuardOptions {
  /** The address the faces are bound to (`--host`); its name is accepted in Host. */
  host: string;
  /** Extra origins (normalized, origins.ts) whose pages may call the face. */
  allowedOrigins: readonly string[];
  /** Sends a refusal in the face's error family. */
  refuse: (reply: FastifyReply, status: number, type: string, message: string) => FastifyReply;
}

/** Answers a preflight may read beyond the CORS-safelisted ones. */
const EXPOSED = 'ratelimit, ratelimit-policy, retry-after, age, x-marketdesk-stale';
const ALLOWED_METHODS = 'GET, HEAD, POST, DELETE';
/** Header names a preflight may ask for (reflected only when every name is a plain token). */
const TOKEN_LIST = /^[\w-]+(\s*,\s*[\w-]+)*$/;

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** The web UI's pages: a link to them from anywhere may open them. */
const isWebUiPath = (url: string): boolean => {
  const path = url.split('?')[0]!;
  return path === '/' || path === '/app' || path.startsWith('/app/');
};

function hasBody(req: FastifyRequest): boolean {
  const length = one(req.headers['content-length']);
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

export function registerRequestGuard(app: FastifyInstance, opts: GuardOptions): void {
  const allowed = new Set(opts.allowedOrigins);
  app.addHook('onRequest', async (req, reply) => {
    const hostHeader = req.headers.host;
    const name = hostHeader === undefined ? undefined : hostHeaderName(hostHeader);
    if (hostHeader !== undefined && (name === undefined || !hostAllowed(name, opts.host))) {
      return opts.refuse(reply, 403, 'forbidden', 'host not allowed');
    }

    const origin = one(req.headers.origin)?.toLowerCase();
    let cors = false;
    if (origin !== undefined) {
      // The page's own origin is the one the Host header names (checked above).
      const same = hostHeader !== undefined && origin === `http://${hostHeader.toLowerCase()}`;
      cors = !same && allowed.has(origin);
      if (!same && !cors) return opts.refuse(reply, 403, 'forbidden', 'cross-site request refused');
    } else {
      const site = one(req.headers['sec-fetch-site']);
      const navigation =
        (req.method === 'GET' || req.method === 'HEAD') &&
        one(req.headers['sec-fetch-mode']) === 'navigate' &&
        one(req.headers['sec-fetch-dest']) === 'document' &&
        isWebUiPath(req.url);
      if (site !== undefined && site !== 'same-origin' && site !== 'none' && !navigation) {
        return opts.refuse(reply, 403, 'forbidden', 'cross-site request refused');
      }
    }

    if (cors) {
      reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', EXPOSED);
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
        const asked = one(req.headers['access-control-request-headers']);
        reply.header('access-control-allow-methods', ALLOWED_METHODS).header('access-control-max-age', '600');
        if (asked !== undefined && TOKEN_LIST.test(asked)) reply.header('access-control-allow-headers', asked);
        return reply.code(204).send();
      }
    }

    // A bodyless POST without any content type to an authenticated route (the @polymarket/client SDK's `POST /auth/api-key`)
    // passes: a browser cannot send its auth headers cross-site without a preflight, which is refused above.
    const bodyless = req.method === 'POST' && !hasBody(req) && req.headers['content-type'] === undefined;
    const signed = req.routeOptions.config?.signed === true;
    if (
      req.routeOptions.url !== undefined &&
      (req.method === 'POST' || hasBody(req)) &&
      !isJson(req.headers['content-type']) &&
      !(bodyless && signed)
    ) {
      return opts.refuse(reply, 415, 'unsupported media type', 'content type must be application/json');
    }
  });
}
