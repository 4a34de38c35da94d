/**
 * Preload for the sandboxed renderer: exposes `window.marketdesk` and nothing else. Built as
 * CommonJS (sandboxed preloads cannot be ES modules) and may only import `electron`.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, INVOKE_CHANNEL, type BridgeReply, type MarketdeskBridge } from './bridge.ts';

const bridge: MarketdeskBridge = {
  invoke(op: string, params: unknown): Promise<BridgeReply> {
    return ipcRenderer.invoke(INVOKE_CHANNEL, String(op), params) as Promise<BridgeReply>;
  },
  on(event: string, listener: (payload: unknown) => void): () => void {
    const name = String(event);
    // The IPC event object is not passed on: it would hand the page the raw sender.
    const handler = (_e: IpcRendererEvent, eventName: unknown, payload: unknown): void => {
      if (eventName === name) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('marketdesk', bridge);
