/**
 * Preload for the sandboxed renderer: exposes `window.marketdesk` and nothing else. Built as
 * CommonJS (sandboxed preloads cannot be ES modules); it may require only `electron` at run
 * time, so whatever else it imports (plain data only) is bundled in.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { OpName } from '../../src/contract/index.ts';
import { PUSH_EVENTS } from '../../src/contract/push.ts';
import {
  DESKTOP_CHANNEL,
  DESKTOP_METHODS,
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  OPS_ARG_PREFIX,
  type BridgeReply,
  type DesktopEventName,
  type MarketdeskBridge,
} from '../../src/contract/bridge.ts';

// The contract's names as main passes them: exactly the ones main answers.
const opsArg = process.argv.find((a) => a.startsWith(OPS_ARG_PREFIX)) ?? OPS_ARG_PREFIX;
const ops = Object.freeze(opsArg.slice(OPS_ARG_PREFIX.length).split(',').filter(Boolean)) as readonly OpName[];
// The service's push events plus the host's own (and a clicked alert notification).
const events = new Set<string>([...PUSH_EVENTS, 'service', 'alertOpen'] satisfies DesktopEventName[]);

const refused = (error: string): Promise<BridgeReply<never>> =>
  Promise.resolve({ ok: false, status: 400, body: { type: 'bad request', error } });

const bridge: MarketdeskBridge = {
  ops,
  invoke(op, params) {
    if (!ops.includes(op)) return refused('unknown operation');
    return ipcRenderer.invoke(INVOKE_CHANNEL, op, params ?? {}) as Promise<BridgeReply<never>>;
  },
  on(event, listener) {
    const name = String(event);
    if (!events.has(name)) return () => {};
    // The IPC event object is not passed on: it would hand the page the raw sender.
    const handler = (_e: IpcRendererEvent, eventName: unknown, payload: unknown): void => {
      if (eventName === name) listener(payload as never);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
  desktop(method, arg) {
    if (!DESKTOP_METHODS.includes(method)) return refused('unknown method');
    return ipcRenderer.invoke(DESKTOP_CHANNEL, method, arg) as Promise<BridgeReply<never>>;
  },
};

contextBridge.exposeInMainWorld('marketdesk', bridge);
