/**
 * `window.marketdesk` emulated in a page and wired to a real service through main/relay.ts,
 * the function the Electron service worker runs for every IPC call. Lets the renderer's
 * desktop path run in plain Chromium (tests, screenshots); Electron's own part (preload,
 * safeStorage, sender checks) is covered only where an Electron binary exists.
 */
import type { Page } from 'playwright-core';
import { opNames } from '../../src/contract/index.ts';
import type { Service } from '../../src/http/server.ts';
import { relay } from '../../main/relay.ts';
import { mergeSettings, settingsInputError } from '../../main/settings.ts';
import { DEFAULT_BASE_PORT, DEFAULT_CLOB_PORT } from '../../src/contract/ports.ts';
import type { DesktopSettings } from '../../src/contract/bridge.ts';

export async function installBridge(page: Page, service: Service): Promise<void> {
  await page.exposeBinding('__mdInvoke', (_source, op: string, params: unknown) => relay(service.dispatch, op, params));
  const uiState: { value: unknown } = { value: null };
  // Kept in memory, validated and merged as main does (main/settings.ts); no core restart here.
  let settings: DesktopSettings = { httpEnabled: true, basePort: DEFAULT_BASE_PORT, clobPort: DEFAULT_CLOB_PORT, allowedOrigins: [] };
  await page.exposeBinding('__mdDesktop', (_source, method: string, arg: unknown) => {
    switch (method) {
      case 'uiState.load':
        return { ok: true, result: uiState.value };
      case 'uiState.save':
        uiState.value = arg;
        return { ok: true, result: null };
      case 'credentials.storage':
        return { ok: true, result: { available: true, weak: false } };
      case 'settings.get':
        return { ok: true, result: settings };
      case 'settings.set': {
        const invalid = settingsInputError(arg);
        if (invalid) return { ok: false, status: 400, body: { error: invalid } };
        settings = mergeSettings(settings, arg);
        return { ok: true, result: settings };
      }
      case 'service.state':
        return { ok: true, result: { state: 'running', restarts: 0 } };
      default:
        return { ok: false, status: 400, body: { error: 'unknown method' } };
    }
  });
  // Plain JS text, not a serialised function: tsx's transform adds helpers (`__name`) the page lacks.
  await page.addInitScript({
    content: `(() => {
      const ops = ${JSON.stringify([...opNames])};
      const listeners = new Map();
      window.__mdEmit = (name, payload) => { for (const fn of listeners.get(name) ?? []) fn(payload); };
      // The preload's contract: only the contract's operations, events by name, replies as data.
      window.marketdesk = Object.freeze({
        ops: Object.freeze([...ops]),
        invoke: (op, params) => ops.includes(op)
          ? window.__mdInvoke(op, params ?? {})
          : Promise.resolve({ ok: false, status: 400, body: { type: 'bad request', error: 'unknown operation' } }),
        on: (event, fn) => {
          const set = listeners.get(event) ?? new Set();
          listeners.set(event, set);
          set.add(fn);
          return () => set.delete(fn);
        },
        desktop: (method, arg) => window.__mdDesktop(method, arg),
      });
    })();`,
  });
  // Push events the way main forwards the worker's (webContents.send).
  service.push.subscribe((name, payload) => {
    void page.evaluate(`window.__mdEmit?.(${JSON.stringify(name)}, ${JSON.stringify(payload)})`).catch(() => {});
  });
}
