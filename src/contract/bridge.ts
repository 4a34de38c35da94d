/**
 * The shape of `window.marketdesk`, shared by the preload script (which builds it), the main
 * process (which answers it) and the renderer (which calls it). Types and constants only, no
 * Electron import and no runtime contract code, so the renderer and the sandboxed preload can
 * import it without pulling in zod.
 */
import type { FiredAlert, InputOf, OpName, PushEvents, ResultOf } from './index.ts';

export const INVOKE_CHANNEL = 'marketdesk:invoke';
export const EVENT_CHANNEL = 'marketdesk:event';
export const DESKTOP_CHANNEL = 'marketdesk:desktop';
/** Main hands the preload the contract's operation names on its command line. */
export const OPS_ARG_PREFIX = '--marketdesk-ops=';

/**
 * What `invoke` resolves with. Errors travel as data rather than as a rejected promise:
 * Electron's IPC and contextBridge keep only an Error's message, and the renderer needs the
 * same status and JSON body the HTTP face would have sent.
 */
export type BridgeReply<T = unknown> = { ok: true; result: T } | { ok: false; status: number; body: unknown };

/** The service host's own state, pushed when the core (re)starts or crashes. */
export interface ServiceState {
  state: 'starting' | 'running' | 'restarting' | 'stopped';
  /** How many times the core was restarted after a crash. */
  restarts: number;
  /** Why it last stopped unexpectedly. */
  lastError?: string;
  baseUrl?: string;
  clobUrl?: string;
}

/**
 * Push events in the desktop app: the service's own plus the host's, and `alertOpen`: the user
 * clicked an alert's desktop notification (main/alert-notification.ts); open its market or event.
 */
export type DesktopEvents = PushEvents & { service: ServiceState; alertOpen: FiredAlert };
export type DesktopEventName = keyof DesktopEvents;

/** Settings the desktop app keeps in userData/settings.json. */
export interface DesktopSettings {
  /** Serve the HTTP faces on loopback too (for scripts and the browser). */
  httpEnabled: boolean;
  basePort: number;
  clobPort: number;
  /**
   * Origins (`scheme://host[:port]`) whose pages may call the HTTP faces from a browser; every
   * other site is refused (docs/api-guide.md, Security).
   */
  allowedOrigins: string[];
  /** Closed markets and events are kept this many days after they close, or all of them ('all': the whole history); absent: 7. */
  horizonDays?: number | 'all';
  /**
   * The upstream CLOB WebSocket host (`--clob-ws-url`; the market channel at `<host>/ws/market`),
   * a ws:// or wss:// URL (src/contract/ws-host.ts); absent: the profile's default. `settings.set`
   * takes `''` to go back to the default.
   */
  clobWsUrl?: string;
}

export interface CredentialsInput {
  apiKey: string;
  secret: string;
  passphrase: string;
  address: string;
}

/** How the desktop app keeps credentials at rest (the credentials themselves are the core's). */
export interface CredentialStorage {
  /** The OS can encrypt them (safeStorage); if not, they last for this session only. */
  available: boolean;
  /** No keyring: Electron's fallback obfuscation, not real encryption. */
  weak: boolean;
}

/** Requests on DESKTOP_CHANNEL: name -> [argument, result]. */
export interface DesktopMethods {
  'uiState.load': [undefined, unknown];
  'uiState.save': [unknown, null];
  'settings.get': [undefined, DesktopSettings];
  'settings.set': [Partial<DesktopSettings>, DesktopSettings];
  'credentials.storage': [undefined, CredentialStorage];
  'service.state': [undefined, ServiceState];
}
export type DesktopMethod = keyof DesktopMethods;
export const DESKTOP_METHODS = Object.keys({
  'uiState.load': 1,
  'uiState.save': 1,
  'settings.get': 1,
  'settings.set': 1,
  'credentials.storage': 1,
  'service.state': 1,
} satisfies Record<DesktopMethod, 1>) as DesktopMethod[];

export interface MarketdeskBridge {
  /** The contract's operation names; `invoke` refuses any other. */
  readonly ops: readonly OpName[];
  /** Runs one contract operation (e.g. `markets.list`) in the service core. */
  invoke<K extends OpName>(op: K, params: InputOf<K>): Promise<BridgeReply<ResultOf<K>>>;
  /** Subscribes to a push event; returns an unsubscribe. */
  on<E extends DesktopEventName>(event: E, listener: (payload: DesktopEvents[E]) => void): () => void;
  /** Desktop-only requests: settings, credentials, persisted UI state. */
  desktop<M extends DesktopMethod>(method: M, arg?: DesktopMethods[M][0]): Promise<BridgeReply<DesktopMethods[M][1]>>;
}

/** Operation names look like `markets.list`; anything else is refused before reaching the core. */
export const OP_NAME = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;

/** The history kept by default, in days (the desktop setting and `--horizon-days`), and the most allowed. */
export const DEFAULT_HORIZON_DAYS = 7;
export const MAX_HORIZON_DAYS = 36_500;
