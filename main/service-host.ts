/**
 * Hosts the service core off the Electron main thread (docs/architecture.md, "Processes"): a worker
 * thread running main/service-worker.ts. Relays `invoke` and push events, restarts the core
 * when it crashes (telling the window through the `service` event) and stops it cleanly,
 * cache persisted, on quit. No Electron import, so it is tested under plain Node.
 */
import { Worker } from 'node:worker_threads';
import type { BridgeReply, ServiceState } from '../src/contract/bridge.ts';
import type { FromWorker, ToWorker, WorkerStart } from './worker-protocol.ts';

export interface ServiceHostOptions {
  /** The built worker (out/main/service-worker.js); with `eval`, the worker's source code instead. */
  workerFile: string | URL;
  eval?: boolean;
  /** Start options, read again at every (re)start so settings and credentials apply. */
  start: () => WorkerStart;
  execArgv?: string[];
  /** Delay before restart number `n` (1-based) after a crash. */
  restartDelayMs?: (n: number) => number;
  log?: (level: 'info' | 'warn', message: string) => void;
}

export interface ServiceHost {
  /** Runs one contract operation in the core. Never rejects: failures are replies. */
  invoke(op: string, params: unknown): Promise<BridgeReply>;
  /** Push events from the core, plus `service` for the host's own state. Returns an unsubscribe. */
  onEvent(listener: (event: string, payload: unknown) => void): () => void;
  state(): ServiceState;
  /** Stops the core and starts it again with fresh start options (a settings change). */
  restart(): Promise<void>;
  /** Asks the core to persist and exit; resolves when it has. */
  stop(): Promise<void>;
  /** Tests only: makes the worker throw on its thread (honoured when started with allowCrash). */
  simulateCrash(): void;
}

/** Status of the "core not running" reply; not an HTTP status the service itself ever sends. */
export const UNAVAILABLE_STATUS = 503;
/** A graceful stop that takes longer than this (a wedged thread) is forced. */
const STOP_GRACE_MS = 15_000;
/** A worker that ran this long before crashing resets the restart backoff. */
const HEALTHY_MS = 60_000;

const defaultDelay = (n: number) => Math.min(30_000, 500 * 2 ** (n - 1));

export function startServiceHost(opts: ServiceHostOptions): ServiceHost {
  const listeners = new Set<(event: string, payload: unknown) => void>();
  const pending = new Map<number, (reply: BridgeReply) => void>();
  let waitingForReady: (() => void)[] = [];
  let nextId = 1;
  let worker: Worker | undefined;
  let startedAt = 0;
  let consecutiveCrashes = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let stoppedForRestart: (() => void) | undefined;
  const current: ServiceState = { state: 'starting', restarts: 0 };

  const emit = (event: string, payload: unknown) => {
    for (const fn of listeners) fn(event, payload);
  };
  const setState = (patch: Partial<ServiceState>) => {
    Object.assign(current, patch);
    emit('service', { ...current });
  };
  const unavailable = (error: string): BridgeReply => ({ ok: false, status: UNAVAILABLE_STATUS, body: { type: 'unavailable', error } });

  function spawn(): void {
    const w = new Worker(opts.workerFile, {
      workerData: opts.start(),
      ...(opts.eval ? { eval: true } : {}),
      ...(opts.execArgv ? { execArgv: opts.execArgv } : {}),
    });
    worker = w;
    startedAt = Date.now();
    setState({ state: current.restarts > 0 ? 'restarting' : 'starting' });
    w.on('message', (msg: FromWorker) => {
      switch (msg.type) {
        case 'ready': {
          const { baseUrl, clobUrl } = msg;
          delete current.baseUrl;
          delete current.clobUrl;
          setState({ state: 'running', ...(baseUrl ? { baseUrl } : {}), ...(clobUrl ? { clobUrl } : {}) });
          const waiters = waitingForReady;
          waitingForReady = [];
          for (const go of waiters) go();
          return;
        }
        case 'reply':
          pending.get(msg.id)?.(msg.reply);
          pending.delete(msg.id);
          return;
        case 'push':
          emit(msg.name, msg.payload);
          return;
        case 'log':
          opts.log?.(msg.level, msg.message);
          return;
        case 'failed':
          current.lastError = msg.error;
          return;
      }
    });
    w.on('error', (e) => {
      current.lastError = e.message;
      opts.log?.('warn', `service worker error: ${e.stack ?? e.message}`);
    });
    w.on('exit', (code) => {
      if (worker !== w) return;
      worker = undefined;
      for (const [, reply] of pending) reply(unavailable('the service stopped while answering'));
      pending.clear();
      if (stoppedForRestart) {
        stoppedForRestart();
        return;
      }
      if (stopping) return;
      // A crash: tell the window and start again, backing off if it keeps crashing.
      consecutiveCrashes = Date.now() - startedAt > HEALTHY_MS ? 1 : consecutiveCrashes + 1;
      current.lastError ??= `exited with code ${code}`;
      opts.log?.('warn', `service worker exited (code ${code}); restarting`);
      setState({ state: 'restarting', restarts: current.restarts + 1 });
      restartTimer = setTimeout(spawn, (opts.restartDelayMs ?? defaultDelay)(consecutiveCrashes));
    });
  }

  function whenReady(): Promise<boolean> {
    if (stopping) return Promise.resolve(false);
    if (current.state === 'running' && worker) return Promise.resolve(true);
    return new Promise((resolve) => waitingForReady.push(() => resolve(!stopping)));
  }

  /** Asks the worker to persist and exit; forces it after a grace period. */
  async function stopWorker(w: Worker): Promise<void> {
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
    const force = setTimeout(() => void w.terminate(), STOP_GRACE_MS);
    w.postMessage({ type: 'stop' } satisfies ToWorker);
    await exited;
    clearTimeout(force);
  }

  spawn();

  return {
    async invoke(op, params) {
      if (!(await whenReady()) || !worker) return unavailable('the service is not running');
      const id = nextId++;
      const w = worker;
      return new Promise<BridgeReply>((resolve) => {
        pending.set(id, resolve);
        w.postMessage({ type: 'invoke', id, op, params } satisfies ToWorker);
      });
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    state: () => ({ ...current }),
    async restart() {
      if (stopping) return;
      if (restartTimer) clearTimeout(restartTimer);
      // Calls made meanwhile wait for the new core instead of failing.
      setState({ state: 'restarting' });
      const w = worker;
      if (w) {
        const stopped = new Promise<void>((resolve) => (stoppedForRestart = resolve));
        await stopWorker(w);
        await stopped;
        stoppedForRestart = undefined;
      }
      spawn();
    },
    simulateCrash() {
      worker?.postMessage({ type: 'crash' } satisfies ToWorker);
    },
    stop() {
      stopping ??= (async () => {
        if (restartTimer) clearTimeout(restartTimer);
        const w = worker;
        if (w) await stopWorker(w);
        for (const go of waitingForReady) go();
        waitingForReady = [];
        setState({ state: 'stopped' });
        listeners.clear();
      })();
      return stopping;
    },
  };
}
