/**
 * The inbound limiter on an HTTP face. Admitted answers carry `RateLimit-Policy` and
 * `RateLimit` (IETF draft httpapi-ratelimit-headers); refused ones are 429 with `Retry-After`
 * and the throttled body (docs/architecture.md, "Decisions": `{"error":"rate limit exceeded"}`, catalog routes add
 * `"type":"too many requests"`).
 *
 * Most routes are counted per address in an onRequest hook, before the body is read or the
 * handler runs. Routes keyed per API key (`apiKeyRoutes`) are counted in a preHandler, once the
 * body is read, so the L2 signature can be checked first: only a verified request counts
 * against its key, and anything else counts against its address. An API key is not a secret,
 * so keying on the bare header would let anyone spend (or dodge) a user's budget.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { operations, type Face } from '../contract/index.ts';
import type { InboundLimiter } from './inbound.ts';

const THROTTLED = JSON.stringify({ error: 'rate limit exceeded' });
const THROTTLED_CATALOG = JSON.stringify({ type: 'too many requests', error: 'rate limit exceeded' });

/** The API key of a request whose L2 signature verifies; undefined otherwise. */
export type VerifiedKey = (req: FastifyRequest) => string | undefined;

export function registerInboundLimits(app: FastifyInstance, face: Face, limiter: InboundLimiter, verifiedKey?: VerifiedKey): void {
  // Which routes answer in the catalog family (`{type, error}`); others answer `{error}`.
  const catalogStyle = new Set<string>();
  for (const def of Object.values(operations) as { face: Face; method: string; path: string; errors: string }[]) {
    if (def.face === face && def.errors === 'catalog') catalogStyle.add(`${def.method} ${def.path}`);
  }
  const routeOf = (req: FastifyRequest): string | undefined => {
    const url = req.routeOptions.url;
    // HEAD is answered by the GET route and counts as it.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    return url !== undefined ? `${method} ${url}` : undefined;
  };
  const admit = (req: FastifyRequest, reply: FastifyReply, route: string | undefined, key: string | undefined) => {
    const plan = limiter.plan(route, face);
    const d = limiter.admit(plan, limiter.clientKey(plan, req.ip, key));
    reply.header('ratelimit-policy', d.policy).header('ratelimit', d.rateLimit);
    if (d.admitted) return;
    const catalog = face === 'base' && (route === undefined || catalogStyle.has(route));
    return reply
      .code(429)
      .header('retry-after', String(d.retryAfterS))
      .type('application/json')
      .send(catalog ? THROTTLED_CATALOG : THROTTLED);
  };
  const byKey = (route: string | undefined) => route !== undefined && limiter.compiled.apiKeyRoutes.has(route);
  app.addHook('onRequest', async (req, reply) => {
    const route = routeOf(req);
    if (!byKey(route)) return admit(req, reply, route, undefined);
  });
  app.addHook('preHandler', async (req, reply) => {
    const route = routeOf(req);
    if (byKey(route)) return admit(req, reply, route, verifiedKey?.(req));
  });
}
