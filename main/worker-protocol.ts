/**
 * Messages between the Electron main process and the service worker (main/service-worker.ts).
 * Plain data only: they cross a worker_threads port by structured clone.
 */
import type { UpstreamUrls } from '../src/upstream/client.ts';
import type { BridgeReply, CredentialsInput } from '../src/contract/bridge.ts';

/** The worker's start options (its workerData), rebuilt from settings at every (re)start. */
export interface WorkerStart {
  dataDir: string;
  webRoot: string;
  http: boolean;
  basePort: number;
  clobPort: number;
  profile: string;
  urls: UpstreamUrls;
  /** The upstream CLOB WebSocket host (settings, `clobWsUrl`); absent: the profile's default. */
  clobWsUrl?: string;
  offline: boolean;
  /** Origins whose pages may call the HTTP faces (settings, `allowedOrigins`). */
  allowedOrigins?: string[];
  /** Decrypted by main from safeStorage; handed to the core, never to the renderer. */
  credentials?: CredentialsInput;
  syncIntervalMs?: number;
  /** Days closed items are kept, or 'all' (the whole closed history, walked in the background); default 7. */
  horizonDays?: number | 'all';
  /** Tests only: honour `{type: 'crash'}`. */
  allowCrash?: boolean;
}

export type ToWorker = { type: 'invoke'; id: number; op: string; params: unknown } | { type: 'stop' } | { type: 'crash' };

export type FromWorker =
  | { type: 'ready'; baseUrl?: string; clobUrl?: string }
  | { type: 'reply'; id: number; reply: BridgeReply }
  | { type: 'push'; name: string; payload: unknown }
  | { type: 'log'; level: 'info' | 'warn'; message: string }
  | { type: 'failed'; error: string };
