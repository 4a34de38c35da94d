/**
 * A real HTTP server that answers like Polymarket's APIs on one port: Gamma's catalog
 * (routes/gamma.ts, docs/upstream/gamma.md), the CLOB (routes/clob.ts), the Data API's
 * leaderboard (routes/data.ts), pictures for the catalog's icons (routes/images.ts) and the
 * fake's own control routes (routes/control.ts). Requests go through pipeline.ts: limits,
 * scripted faults, the request log. The CLOB's market channel (a WebSocket, market-ws.ts) is an
 * upgrade at `/ws/market` on the same port: `FakeUpstream.marketWs`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LimitsTable } from '../limits/table.ts';
import type { FakeDataV2Options } from './data-v2.ts';
import type { FakeCatalog } from './catalog.ts';
import type { FakeClobOptions } from './clob.ts';
import type { FakeLeaderboardOptions } from './data-api.ts';
import { FaultScript } from './faults.ts';
import { FakeLimits } from './limits.ts';
import type { FakeMarketWs, MarketWsOptions } from './market-ws.ts';
import { Pipeline } from './pipeline.ts';
import { RequestLog } from './request-log.ts';
import { FakeRouter } from './router.ts';
import { registerClobRoutes } from './routes/clob.ts';
import { registerControlRoutes } from './routes/control.ts';
import { registerDataRoutes } from './routes/data.ts';
import { registerGammaRoutes } from './routes/gamma.ts';
import { registerImageRoutes } from './routes/images.ts';
import { createState, type FakeState } from './state.ts';
import type { FakeTradingOptions } from './trading.ts';

export interface FakeUpstreamOptions {
  catalog: FakeCatalog;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Print one line per request to stdout. */
  log?: boolean;
  /** Serve `/markets/keyset` and `/events/keyset` (default true); false makes them 404, to test offset fallback. */
  keyset?: boolean;
  /** Silent clamp of `limit` on markets/events (default 100). */
  maxLimit?: number;
  /** Largest `offset` before the 422 (default 2000). */
  maxOffset?: number;
  /** Serve CLOB `GET /data/orders` for these credentials (absent: 404, as for any unknown route). */
  clob?: FakeClobOptions;
  /** Data API `GET /v1/leaderboard` boards (always served). */
  leaderboard?: FakeLeaderboardOptions;
  /** Data API v2's scripted account (default: the CLOB credentials' address, else a made-up one). */
  dataV2?: FakeDataV2Options;
  /** Enforce section 8's windows ('spec', or a table) with 429 + Retry-After; default 'off'. */
  limits?: 'spec' | 'off' | LimitsTable;
  /** The limiter's monotonic clock (tests). */
  limitsNow?: () => number;
  /** Options of the CLOB trading routes (books, prices, histories, order placement). */
  trading?: FakeTradingOptions;
  /**
   * 'local': the catalog's `image`/`icon` URLs are rewritten to this server's `/images/<name>`,
   * which answers with generated pictures (images.ts), so icons show without the internet (the
   * demo, the CLI). 'recorded' (default): left as recorded, so two servers of one catalog answer
   * alike (tests compare their syncs); `/images/` is served either way.
   */
  images?: 'local' | 'recorded';
  /** The CLOB market channel at `ws://HOST:PORT/ws/market`: seed, rate, cap (market-ws.ts). */
  marketWs?: MarketWsOptions;
}

export interface FakeUpstream extends Pick<FakeState, 'catalog' | 'clob' | 'leaderboard' | 'trading' | 'dataV2'> {
  url: string;
  port: number;
  close(): Promise<void>;
  faults: FaultScript;
  requests: RequestLog;
  /** Present when limits are enforced. */
  limits: FakeLimits | undefined;
  /** The CLOB market channel (`marketWs.url` is `ws://HOST:PORT`; the channel is at `${url}/ws/market`). */
  marketWs: FakeMarketWs;
}

/** The fake's routes: one module per API it models, then its own control routes. */
function routes(state: FakeState): FakeRouter {
  const router = new FakeRouter();
  registerControlRoutes(router, state);
  registerGammaRoutes(router, state);
  registerClobRoutes(router, state);
  registerDataRoutes(router, state);
  registerImageRoutes(router);
  return router;
}

export async function startFakeUpstream(opts: FakeUpstreamOptions): Promise<FakeUpstream> {
  const state = createState(opts);
  const host = opts.host ?? '127.0.0.1';
  const faults = new FaultScript();
  const requests = new RequestLog();
  const limits =
    !opts.limits || opts.limits === 'off' ? undefined : new FakeLimits(opts.limits === 'spec' ? undefined : opts.limits, opts.limitsNow);
  const pipeline = new Pipeline({ router: routes(state), faults, requests, limits, log: opts.log === true });
  const server = createServer(pipeline.handle);
  const { marketWs } = state;
  server.on('upgrade', (req, socket, head) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const taken = marketWs.handleUpgrade(req, socket, head);
    requests.add({ method: req.method ?? 'GET', path, query: {}, status: taken ? 101 : 404, time: Date.now() });
    if (!taken) socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
  });
  await listen(server, opts.port ?? 0, host);
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (opts.images === 'local') state.catalog.localizeImages(url);
  marketWs.listening(url);

  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closed ??= new Promise<void>((resolve) => {
      pipeline.close();
      // Upgraded sockets are the channel's: dropped first, or server.close() would wait for them.
      void marketWs.close();
      server.close(() => resolve());
      // Idle keep-alive sockets and hung requests alike: close() must not wait for clients.
      server.closeAllConnections();
    });
    return closed;
  };
  const { catalog, clob, leaderboard, trading, dataV2 } = state;
  return { url, port, close, faults, requests, catalog, clob, leaderboard, trading, dataV2, limits, marketWs };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
