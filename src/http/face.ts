/**
 * An HTTP face (base or clob): one Fastify server whose routes come from the contract table.
 * Every answer is JSON; every error is one of the spec's bodies, never a stack trace.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { ApiError, isApiError, notFound, operations, type Face, type OpName, type RawParams } from '../contract/index.ts';
import type { Logger } from '../store/sqlite.ts';
import type { Dispatch } from '../service/dispatch.ts';

export interface FaceOptions {
  face: Face;
  dispatch: Dispatch;
  log: Logger;
  /** Extra routes a face carries beyond the contract (web-mode static files, for one). */
  extend?: (app: FastifyInstance) => void | Promise<void>;
}

/** Query strings and bodies are bounded: nothing a client sends may cost unbounded memory. */
const MAX_URL = 8 * 1024;
const MAX_BODY = 1024 * 1024;

function sendError(reply: FastifyReply, face: Face, e: ApiError): FastifyReply {
  // The clob face's error bodies are `{error}` only (spec section 7).
  const body = face === 'clob' && 'type' in e.body ? { error: e.body.error } : e.body;
  return reply.code(e.status).type('application/json').send(body);
}

export async function buildFace(opts: FaceOptions): Promise<FastifyInstance> {
  const { face, dispatch, log } = opts;
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_BODY,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Keep-alive sockets would hold close() open for their idle timeout.
    forceCloseConnections: true,
  });

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.length > MAX_URL) {
      const e = new ApiError(414, face === 'clob' ? { error: 'request URI too long' } : { type: 'bad request', error: 'request URI too long' });
      return sendError(reply, face, e);
    }
  });

  for (const name of Object.keys(operations) as OpName[]) {
    const def = operations[name];
    if (def.face !== face) continue;
    app.route({
      method: def.method,
      url: def.path,
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const raw = { ...(req.query as RawParams), ...(req.params as RawParams) };
        const result = await dispatch(name, raw);
        return reply.type('application/json').send(JSON.stringify(result));
      },
    });
  }

  await opts.extend?.(app);

  app.setNotFoundHandler((_req, reply) => sendError(reply, face, notFound('route')));
  app.setErrorHandler((thrown, _req, reply) => {
    if (isApiError(thrown)) return sendError(reply, face, thrown);
    const err = thrown as Error & { statusCode?: number };
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own rejections (bad JSON body, body too large, bad URL encoding).
      return sendError(reply, face, new ApiError(status, { type: 'bad request', error: err.message }));
    }
    log.warn(`unhandled error: ${err.stack ?? err.message}`);
    return sendError(reply, face, new ApiError(500, { type: 'internal error', error: 'internal error' }));
  });
  return app;
}
