/**
 * The inbound limiter on an HTTP face: one onRequest hook, before the body is read or the
 * handler runs. Admitted answers carry `RateLimit-Policy` and `RateLimit` (IETF draft
 * httpapi-ratelimit-headers); refused ones are 429 with `Retry-After` and the throttled body
 * (DESIGN.md: `{"error":"rate limit exceeded"}`, catalog routes add `"type":"too many requests"`).
 */
import type { FastifyInstance } from 'fastify';
import { operations, type Face } from '../contract/index.ts';
import type { InboundLimiter } from './inbound.ts';

const THROTTLED = JSON.stringify({ error: 'rate limit exceeded' });
const THROTTLED_CATALOG = JSON.stringify({ type: 'too many requests', error: 'rate limit exceeded' });

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

export function registerInboundLimits(app: FastifyInstance, face: Face, limiter: InboundLimiter): void {
  // Which routes answer in the catalog family (`{type, error}`); others answer `{error}`.
  const catalogStyle = new Set<string>();
  for (const def of Object.values(operations) as { face: Face; method: string; path: string; errors: string }[]) {
    if (def.face === face && def.errors === 'catalog') catalogStyle.add(`${def.method} ${def.path}`);
  }
  app.addHook('onRequest', async (req, reply) => {
    const url = req.routeOptions.url;
    // HEAD is answered by the GET route and counts as it.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = url !== undefined ? `${method} ${url}` : undefined;
    const plan = limiter.plan(route, face);
    const apiKey = header(req.headers['poly_api_key']) ?? header(req.headers['kuest_api_key']);
    const d = limiter.admit(plan, limiter.clientKey(plan, req.ip, apiKey));
    reply.header('ratelimit-policy', d.policy).header('ratelimit', d.rateLimit);
    if (d.admitted) return;
    const catalog = face === 'base' && (route === undefined || catalogStyle.has(route));
    return reply
      .code(429)
      .header('retry-after', String(d.retryAfterS))
      .type('application/json')
      .send(catalog ? THROTTLED_CATALOG : THROTTLED);
  });
}
