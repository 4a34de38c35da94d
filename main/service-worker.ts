/**
 * The service core inside a worker thread of the Electron main process (docs/architecture.md,
 * "Processes"): sql.js queries, sync batches and cache writes never block window handling.
 * Built by electron-vite as a second main entry (out/main/service-worker.js). No Electron
 * import: it is plain Node, and the tests run it without Electron.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startService, type Service, type ServiceOptions } from '../src/http/server.ts';
import { DESKTOP_LIVE_CLIENT } from '../src/contract/live.ts';
import type { Logger } from '../src/logger.ts';
import { relay } from './relay.ts';
import type { FromWorker, ToWorker, WorkerStart } from './worker-protocol.ts';

if (!parentPort) throw new Error('service-worker.ts runs only as a worker thread');
const port = parentPort;
const start = workerData as WorkerStart;
const post = (msg: FromWorker) => port.postMessage(msg);

const log: Logger = {
  info: (message) => post({ type: 'log', level: 'info', message }),
  warn: (message) => post({ type: 'log', level: 'warn', message }),
};

async function boot(): Promise<Service> {
  const options: ServiceOptions = {
    dataDir: start.dataDir,
    webRoot: start.webRoot,
    host: '127.0.0.1',
    ...(start.allowedOrigins ? { allowedOrigins: start.allowedOrigins } : {}),
    http: start.http,
    basePort: start.basePort,
    clobPort: start.clobPort,
    profile: start.profile,
    urls: start.urls,
    ...(start.clobWsUrl ? { clobWsUrl: start.clobWsUrl } : {}),
    offline: start.offline,
    autoSync: !start.offline,
    log,
    ...(start.syncIntervalMs !== undefined ? { syncIntervalMs: start.syncIntervalMs } : {}),
    // 'all': nothing closed is pruned and the closed history is walked (src/sync/history-walk.ts).
    ...(start.horizonDays !== undefined ? { horizonMs: start.horizonDays === 'all' ? Infinity : start.horizonDays * 86_400_000 } : {}),
    ...(start.credentials ? { credentials: start.credentials } : {}),
    // The HTTP faces other local programs reach get the spec's limits, as under `npm run serve`;
    // the window's own calls come over IPC and are never limited.
    limits: {},
  };
  try {
    return await startService(options);
  } catch (e) {
    // Another program holds the configured ports (often `npm run serve`): take free ones.
    if (start.http && (e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      log.warn(`port ${start.basePort} or ${start.clobPort} is taken; using free ports`);
      return startService({ ...options, basePort: 0, clobPort: 0 });
    }
    throw e;
  }
}

const service = boot();
service.then(
  (s) => {
    // The window's live view is `desktop` (src/contract/live-ops.ts): its quotes come over this one transport.
    s.push.subscribe((name, payload) => post({ type: 'push', name, payload }), DESKTOP_LIVE_CLIENT);
    post({ type: 'ready', ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}), ...(s.clobUrl ? { clobUrl: s.clobUrl } : {}) });
  },
  (e: unknown) => {
    post({ type: 'failed', error: (e as Error).message });
    process.exit(1);
  },
);

port.on('message', (msg: ToWorker) => {
  switch (msg.type) {
    case 'invoke':
      void service.then((s) => relay(s.dispatch, msg.op, msg.params)).then((reply) => post({ type: 'reply', id: msg.id, reply }));
      return;
    case 'stop':
      // Persist the cache, close the faces, then end the thread. A final save that fails is said
      // (the host logs it) rather than dropped, and the exit code says it too, as `serve`'s does.
      void service
        .then((s) => s.close())
        .then(
          () => process.exit(0),
          (e: unknown) => {
            post({ type: 'log', level: 'warn', message: `the cache was not saved at shutdown: ${(e as Error).message}` });
            process.exit(74);
          },
        );
      return;
    case 'crash':
      if (start.allowCrash)
        setImmediate(() => {
          throw new Error('crash requested by a test');
        });
      return;
  }
});
