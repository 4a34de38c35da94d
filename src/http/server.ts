/**
 * The whole service as users meet it: the service core (src/service/service.ts) with its two
 * HTTP faces in front (base: catalog, search, leaderboard, desk routes, the push stream and the
 * web UI; clob: orders, the CLOB and its market channel for scripts, `/ws/market`), on loopback by default.
 */
import type { FastifyInstance } from 'fastify';
import { parseAllowedOrigins } from '../contract/origins.ts';
import { silentLogger } from '../logger.ts';
import { DEFAULT_BASE_PORT, DEFAULT_CLOB_PORT } from '../contract/ports.ts';
import { createService, type Service as ServiceCore, type ServiceOptions as CoreOptions } from '../service/service.ts';
import { buildFace } from './face.ts';
import { registerMarketWs } from './market-ws.ts';
import { registerPushStream } from './push-stream.ts';
import { registerWebUi } from './web-ui.ts';

export { VERSION } from '../service/service.ts';

export interface ServiceOptions extends CoreOptions {
  host?: string;
  /**
   * Origins (`scheme://host[:port]`) whose pages may call the faces from a browser
   * (`--allow-origin`); every other site is refused (docs/api-guide.md, Security).
   */
  allowedOrigins?: readonly string[];
  /** 0 picks a free port. */
  basePort?: number;
  clobPort?: number;
  /** Serve the HTTP faces (the desktop app can turn them off). */
  http?: boolean;
  /** The built renderer served at /app/ (default out/renderer). */
  webRoot?: string;
}

export interface Service extends Omit<ServiceCore, 'close' | 'startBackground'> {
  baseUrl: string | undefined;
  clobUrl: string | undefined;
  close(): Promise<void>;
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  await app.listen({ host, port });
  const addr = app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
}

export async function startService(opts: ServiceOptions): Promise<Service> {
  // Refused before anything is opened, so a bad origin leaves nothing to close.
  const allowedOrigins = parseAllowedOrigins(opts.allowedOrigins ?? []);
  const core = await createService(opts);
  const log = opts.log ?? silentLogger;
  const { dispatch, apiToken, limiter, push } = core;
  const faces: FastifyInstance[] = [];
  let baseUrl: string | undefined;
  let clobUrl: string | undefined;
  const host = opts.host ?? '127.0.0.1';
  const guard = { host, allowedOrigins, apiToken: apiToken.token };
  const closeFaces = () => Promise.all(faces.map((f) => f.close()));
  try {
    if (opts.http !== false) {
      // `authenticate`: the base face also serves the L2 routes the web UI signs (contract `webUi`).
      const base = await buildFace({
        face: 'base',
        dispatch,
        log,
        authenticate: core.authenticate,
        ...guard,
        ...(limiter ? { limits: limiter } : {}),
        catalogVersion: core.catalogVersion,
        extend: (app) => {
          registerPushStream(app, push);
          return registerWebUi(app, opts.webRoot, apiToken.token);
        },
      });
      faces.push(base);
      baseUrl = await listen(base, host, opts.basePort ?? DEFAULT_BASE_PORT);
      const clob = await buildFace({
        face: 'clob',
        dispatch,
        log,
        authenticate: core.authenticate,
        ...guard,
        ...(limiter ? { limits: limiter } : {}),
        // Scripts subscribe here in Polymarket's protocol, sharing the service's upstream sockets.
        extend: (app) =>
          registerMarketWs(app, { live: core.live, log, wrongTradingId: (id) => core.store.wrongTradingId(id) !== undefined }),
      });
      faces.push(clob);
      clobUrl = await listen(clob, host, opts.clobPort ?? DEFAULT_CLOB_PORT);
    }
  } catch (e) {
    await core.close(closeFaces);
    throw e;
  }
  if (opts.autoSync) core.startBackground();
  const { close: _close, startBackground: _start, ...rest } = core;
  return { ...rest, baseUrl, clobUrl, close: () => core.close(closeFaces) };
}
