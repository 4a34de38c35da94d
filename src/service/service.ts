/**
 * The service core, composed: the cache, the upstream client, the sync engine, the contract
 * dispatcher and the HTTP faces. The headless CLI and Electron's service host both start it here.
 */
import type { FastifyInstance } from 'fastify';
import type { SiteMap } from '../store/catalog-reader.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { silentLogger, type Logger } from '../store/sqlite.ts';
import { CatalogSync } from '../sync/catalog-sync.ts';
import { UpstreamClient, type UpstreamUrls } from '../upstream/client.ts';
import { buildFace } from '../http/face.ts';
import { registerWebUi } from '../http/web-ui.ts';
import { catalogHandlers } from './catalog-handlers.ts';
import { createDispatch, type Dispatch, type Handlers } from './dispatch.ts';

export const VERSION = '0.1.0';

export interface ServiceOptions {
  /** undefined: memory only (tests). */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port. */
  basePort?: number;
  clobPort?: number;
  /** Serve the HTTP faces (the desktop app can turn them off). */
  http?: boolean;
  profile?: string;
  urls: UpstreamUrls;
  /** Serve the cache only; never contact the upstream. */
  offline?: boolean;
  syncIntervalMs?: number;
  horizonMs?: number;
  /** Sync in the background right after start (the CLI's `serve`). */
  autoSync?: boolean;
  sites?: SiteMap;
  log?: Logger;
  client?: ConstructorParameters<typeof UpstreamClient>[0] extends infer O ? Partial<O> : never;
  persistDelayMs?: number;
  /** The built renderer served at /app/ (default out/renderer). */
  webRoot?: string;
}

export interface Service {
  store: CatalogStore;
  sync: CatalogSync | undefined;
  client: UpstreamClient;
  dispatch: Dispatch;
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
  const log = opts.log ?? silentLogger;
  const sites = opts.sites ?? {};
  const store = await CatalogStore.open({
    ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}),
    log,
    sites: () => sites,
    ...(opts.persistDelayMs !== undefined ? { persistDelayMs: opts.persistDelayMs } : {}),
  });
  const client = new UpstreamClient({ ...opts.client, urls: opts.urls });
  const sync = opts.offline
    ? undefined
    : new CatalogSync(store, client, {
        log,
        ...(opts.syncIntervalMs !== undefined ? { intervalMs: opts.syncIntervalMs } : {}),
        ...(opts.horizonMs !== undefined ? { horizonMs: opts.horizonMs } : {}),
      });
  const handlers: Handlers = {
    ...catalogHandlers(store, { profile: opts.profile ?? 'custom', offline: !!opts.offline, version: VERSION, sync }),
  };
  const dispatch = createDispatch(handlers, log);

  const faces: FastifyInstance[] = [];
  let baseUrl: string | undefined;
  let clobUrl: string | undefined;
  const host = opts.host ?? '127.0.0.1';
  try {
    if (opts.http !== false) {
      const base = await buildFace({ face: 'base', dispatch, log, catalogVersion: () => store.catalogVersion, extend: (app) => registerWebUi(app, opts.webRoot) });
      faces.push(base);
      baseUrl = await listen(base, host, opts.basePort ?? 7310);
      const clob = await buildFace({ face: 'clob', dispatch, log });
      faces.push(clob);
      clobUrl = await listen(clob, host, opts.clobPort ?? 7311);
    }
  } catch (e) {
    await Promise.all(faces.map((f) => f.close()));
    await store.close();
    throw e;
  }
  if (sync && opts.autoSync) sync.start();

  let closing: Promise<void> | undefined;
  return {
    store, sync, client, dispatch, baseUrl, clobUrl,
    close() {
      closing ??= (async () => {
        await sync?.stop();
        await Promise.all(faces.map((f) => f.close()));
        await store.close();
      })();
      return closing;
    },
  };
}
