/**
 * An HTTP face (base or clob): one Fastify server whose routes come from the contract table.
 * Every answer is JSON; every error is one of the spec's bodies, never a stack trace.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import {
  ApiError,
  ROUTES,
  isApiError,
  isLocalWrite,
  isRawBody,
  type RawBody,
  notFound,
  opNames,
  servedOn,
  type Face,
  type RawParams,
  type RouteDef,
} from '../contract/index.ts';
import type { Logger } from '../logger.ts';
import type { Dispatch } from '../contract/handlers.ts';
import { ResponseCache, cacheKey } from './response-cache.ts';
import { UNAUTHORIZED_BODY, type L2Request } from '../auth/l2.ts';
import type { InboundLimiter } from '../limits/inbound.ts';
import { registerInboundLimits } from '../limits/http.ts';
import { registerRequestGuard } from './origin-guard.ts';
import { registerWriteGuard } from './write-guard.ts';
import { l2Identity } from './l2-identity.ts';
import { loopTurns, TooManyPipelinedError } from '../limits/fair-turns.ts';
import { registerOpenApi } from './openapi-route.ts';
import { L1_HEADER_NAMES } from '../contract/openapi.ts';

export interface FaceOptions {
  face: Face;
  dispatch: Dispatch;
  log: Logger;
  /** The catalog's version; with it, answers of `cache: 'catalog'` operations are reused. */
  catalogVersion?: () => number;
  /** Verifies L2 auth for `auth: 'l2'` operations (the base face's `webUi` ones too); without it they always answer 401. */
  authenticate?: (req: L2Request) => boolean;
  /** Extra routes a face carries beyond the contract (web-mode static files, for one). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Section 8's rate limits on every route of the face; absent: `--no-limits`. */
  limits?: InboundLimiter;
  /** The address the face is bound to (default 127.0.0.1): its name is accepted in `Host`. */
  host?: string;
  /** Origins (normalized, src/http/origins.ts) whose pages may call the face (`--allow-origin`). */
  allowedOrigins?: readonly string[];
  /** The local API token writes carry (write-guard.ts); without it every write answers 401. */
  apiToken?: string;
}

/** Query strings and bodies are bounded: nothing a client sends may cost unbounded memory. */
const MAX_URL = 8 * 1024;
const MAX_BODY = 1024 * 1024;

function sendError(reply: FastifyReply, face: Face, e: ApiError): FastifyReply {
  // The clob face's error bodies are `{error}` only (spec section 7).
  const body = face === 'clob' && 'type' in e.body ? { error: e.body.error } : e.body;
  return reply.code(e.status).type('application/json').send(body);
}

/** An image or a CSV export: bytes as they are, a text stream chunk by chunk as it is produced. */
function sendRaw(reply: FastifyReply, r: RawBody): FastifyReply {
  for (const [k, v] of Object.entries(r.headers ?? {})) reply.header(k, v);
  reply.type(r.contentType);
  return reply.send(
    r.body instanceof Uint8Array ? Buffer.from(r.body.buffer, r.body.byteOffset, r.body.byteLength) : Readable.from(r.body),
  );
}

/** A client error body in the face's family. */
function clientError(face: Face, status: number, message: string): ApiError {
  return new ApiError(status, face === 'clob' ? { error: message } : { type: 'bad request', error: message });
}

/** Waits for this connection's turn; too many pipelined requests on it get a 503 to retry. */
async function takeTurn(face: Face, connection: object, reply: FastifyReply): Promise<void> {
  try {
    await loopTurns.turn(connection);
  } catch (e) {
    if (!(e instanceof TooManyPipelinedError)) throw e;
    reply.header('retry-after', '1');
    throw new ApiError(503, face === 'clob' ? { error: e.message } : { type: 'service unavailable', error: e.message });
  }
}

/**
 * The request's four L1 headers (a ClobAuth EIP-712 signature by the caller's wallet) as sent,
 * named in upper case as clients send them; undefined when one is missing.
 */
function l1Headers(req: FastifyRequest): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const name of L1_HEADER_NAMES) {
    const v = req.headers[name.toLowerCase()];
    const one = Array.isArray(v) ? v[0] : v;
    if (one === undefined || one === '' || one.length > 200) return undefined;
    out[name] = one;
  }
  return out;
}

function noSchemas(): never {
  throw new Error('marketdesk routes declare no Fastify schemas: the contract (src/contract) validates requests');
}

export async function buildFace(opts: FaceOptions): Promise<FastifyInstance> {
  const { face, dispatch, log } = opts;
  const app = Fastify({
    logger: false,
    // No route declares a Fastify schema (the contract validates every request), so Fastify's
    // default compilers, Ajv and fast-json-stringify, would be loaded at start for nothing (about
    // 30 ms). A route that did declare one fails loudly at registration instead of going unchecked.
    schemaController: { compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas } },
    bodyLimit: MAX_BODY,
    routerOptions: { maxParamLength: 500 },
    // Keep-alive sockets would hold close() open for their idle timeout.
    forceCloseConnections: true,
    // Long URLs reach the onRequest hook below and get a JSON 414 instead of Node's bare 431.
    http: { maxHeaderSize: 64 * 1024 },
    // Router-level rejections (malformed %-escapes, over-long path parameters) never reach
    // setErrorHandler; they get the face's body here.
    frameworkErrors: (err, _req, reply) => {
      const status = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      const message =
        err.code === 'FST_ERR_BAD_URL'
          ? 'malformed URL'
          : err.code === 'FST_ERR_MAX_PARAM_LENGTH'
            ? 'path parameter too long'
            : 'bad request';
      void sendError(reply, face, clientError(face, status, message));
    },
    // Requests Node's parser refuses before Fastify sees them (header block over maxHeaderSize).
    clientErrorHandler: (err, socket) => {
      if (!socket.writable) return;
      const tooLarge = (err as { code?: string }).code === 'HPE_HEADER_OVERFLOW';
      const e = clientError(face, tooLarge ? 431 : 400, tooLarge ? 'request headers too large' : 'bad request');
      const body = JSON.stringify(e.body);
      socket.end(
        `HTTP/1.1 ${e.status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
          `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    },
  });

  // Handlers first: routes and plugins registered after these inherit them.
  app.setNotFoundHandler((_req, reply) => sendError(reply, face, notFound('route')));
  app.setErrorHandler((thrown, _req, reply) => {
    if (isApiError(thrown)) return sendError(reply, face, thrown);
    const err = thrown as Error & { statusCode?: number };
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own rejections (bad JSON body, body too large).
      return sendError(reply, face, clientError(face, status, err.message));
    }
    log.warn(`unhandled error: ${err.stack ?? err.message}`);
    return sendError(
      reply,
      face,
      new ApiError(500, face === 'clob' ? { error: 'internal_error' } : { type: 'internal error', error: 'internal error' }),
    );
  });

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.length > MAX_URL) return sendError(reply, face, clientError(face, 414, 'request URI too long'));
  });
  // Before the limiter: a refused request (foreign Host or site, non-JSON body, a write without
  // the token) is never counted.
  const refuse = (reply: FastifyReply, status: number, type: string, message: string) =>
    sendError(reply, face, new ApiError(status, { type, error: message }));
  registerRequestGuard(app, { host: opts.host ?? '127.0.0.1', allowedOrigins: opts.allowedOrigins ?? [], refuse });
  registerWriteGuard(app, { token: opts.apiToken, allowedOrigins: opts.allowedOrigins ?? [], refuse });
  const identity = l2Identity(opts.authenticate);
  if (opts.limits) registerInboundLimits(app, face, opts.limits, identity.verifiedKey);
  // JSON bodies stay text: the trading routes forward them byte for byte (a signed order must
  // not change) and an L2 signature covers the body exactly as sent.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  const cache = new ResponseCache();
  for (const name of opNames) {
    const def: RouteDef = ROUTES[name];
    if (!servedOn(def, face)) continue;
    const cacheable = def.cache === 'catalog' && def.method === 'GET' && opts.catalogVersion !== undefined;
    app.route({
      method: def.method,
      url: def.path,
      // `signed`: a bodyless POST may come without a content type (origin-guard.ts): its auth headers need a preflight anyway.
      config: { localWrite: isLocalWrite(def), signed: def.auth !== undefined },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        // Before the parameters are looked at, so an unauthenticated caller learns nothing else.
        // The signature covers the body as sent (empty for GET).
        const text = typeof req.body === 'string' ? req.body : undefined;
        if (def.auth === 'l2' && !identity.authenticated(req)) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
        // L1: the wallet's own signature, which only the upstream can check; without its four headers nothing is sent.
        const l1 = def.auth === 'l1' ? l1Headers(req) : undefined;
        if (def.auth === 'l1' && !l1) throw new ApiError(401, { ...UNAUTHORIZED_BODY });
        const raw: RawParams = { ...(req.query as RawParams), ...(req.params as RawParams), ...(text !== undefined ? { body: text } : {}) };
        const key = cacheable ? cacheKey(name, raw) : '';
        const cached = cacheable ? cache.get(key, opts.catalogVersion!()) : undefined;
        if (cached !== undefined) return reply.type('application/json').send(cached);
        // The client hanging up before the answer cancels upstream work queued for it.
        const gone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableEnded) gone.abort(new Error('the client went away'));
        });
        // One request's work per event-loop iteration, round-robin over connections, so the loop
        // keeps accepting new connections under load (fair-turns.ts).
        await takeTurn(face, req.raw.socket, reply);
        if (gone.signal.aborted) return reply.send();
        // A Polymarket client (POLY_* headers) gets Polymarket's wire format; every other caller the spec's.
        const dialect = def.auth === 'l2' && identity.family(req) === 'POLY' ? 'polymarket' : 'spec';
        const ctx = {
          header: (n: string, v: string) => void reply.header(n, v),
          signal: gone.signal,
          dialect,
          ...(l1 ? { l1 } : {}),
        } as const;
        const result = await dispatch(name, raw, ctx);
        if (isRawBody(result)) return sendRaw(reply, result);
        const body = JSON.stringify(result);
        if (cacheable) cache.set(key, opts.catalogVersion!(), body);
        return reply.type('application/json').send(body);
      },
    });
  }

  // The face's OpenAPI document, after the routes it describes and under the same hooks.
  registerOpenApi(app, face);
  await opts.extend?.(app);
  return app;
}
