/**
 * The shape of `window.marketdesk`, shared by the preload script (which builds it), the main
 * process (which answers it) and the renderer (which calls it). Types and constants only, no
 * Electron import, so the renderer can `import type` it.
 */

export const INVOKE_CHANNEL = 'marketdesk:invoke';
export const EVENT_CHANNEL = 'marketdesk:event';

/**
 * What `invoke` resolves with. Errors travel as data rather than as a rejected promise:
 * Electron's IPC and contextBridge keep only an Error's message, and the renderer needs the
 * same status and JSON body the HTTP face would have sent.
 */
export type BridgeReply =
  | { ok: true; result: unknown }
  | { ok: false; status: number; body: unknown };

export interface MarketdeskBridge {
  /** Runs one contract operation (e.g. `markets.list`) in the service core. */
  invoke(op: string, params: unknown): Promise<BridgeReply>;
  /** Subscribes to a push event (sync progress, catalog changed, ...); returns an unsubscribe. */
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** Operation names look like `markets.list`; anything else is refused before reaching the core. */
export const OP_NAME = /^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)+$/;
