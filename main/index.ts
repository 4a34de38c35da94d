/**
 * Electron main process: app lifecycle, the one window, security policy and the IPC relay to
 * the service host. Kept thin; the service core lives in `src/` and runs in the host.
 */
import {
  app,
  BrowserWindow,
  ipcMain,
  nativeTheme,
  session,
  shell,
  type IpcMainInvokeEvent,
  type WebContents,
  type WebFrameMain,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rendererCspHeader } from './csp.ts';
import { EVENT_CHANNEL, INVOKE_CHANNEL, OP_NAME, type BridgeReply } from './preload/bridge.ts';
import { startServiceHost, type ServiceHost } from './service-host.ts';

// Set by `electron-vite dev`; production loads the built files.
const devServerUrl = app.isPackaged ? undefined : process.env['ELECTRON_RENDERER_URL'];
const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const rendererFileUrl = pathToFileURL(rendererFile);
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');

let mainWindow: BrowserWindow | null = null;
let host: ServiceHost | null = null;

// Two instances would write the same cache file; the second one hands over and exits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Every renderer is sandboxed, including any created by accident.
  app.enableSandbox();
  app.on('second-instance', () => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
  });
  app.on('web-contents-created', (_event, contents) => hardenContents(contents));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  let stopped = false;
  app.on('before-quit', (event) => {
    if (stopped || !host) return;
    // Let the core persist its cache before the process goes away.
    event.preventDefault();
    stopped = true;
    void host.stop().finally(() => app.quit());
  });

  void app.whenReady().then(() => {
    configureSession();
    host = startServiceHost({ dataDir: app.getPath('userData') });
    host.onEvent((name, payload) => {
      mainWindow?.webContents.send(EVENT_CHANNEL, name, payload);
    });
    ipcMain.handle(INVOKE_CHANNEL, handleInvoke);
    createWindow();
  });
}

function configureSession(): void {
  const ses = session.defaultSession;
  const csp = rendererCspHeader(devServerUrl !== undefined);
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [csp] },
    });
  });
  // The app needs no camera, notifications, geolocation, ...; refuse them all.
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
}

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    title: 'marketdesk',
    show: false,
    // Matches the renderer's theme so the window does not flash white before the first paint.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#ffffff',
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: false,
    },
  });
  mainWindow = win;
  win.once('ready-to-show', () => win.show());
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadFile(rendererFile);
}

/** No navigation away from the app, no new windows, no <webview>; web links go to the browser. */
function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternally(url);
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url);
    return { action: 'deny' };
  });
}

function openExternally(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (parsed.protocol === 'https:' || parsed.protocol === 'http:') {
    void shell.openExternal(parsed.href);
  }
}

/** Only the app's own top-level page may call the bridge. */
function isTrustedSender(frame: WebFrameMain | null): boolean {
  if (!frame || frame.parent !== null) return false;
  let url: URL;
  try {
    url = new URL(frame.url);
  } catch {
    return false;
  }
  if (devServerUrl) return url.origin === new URL(devServerUrl).origin;
  return url.protocol === 'file:' && url.pathname === rendererFileUrl.pathname;
}

async function handleInvoke(
  event: IpcMainInvokeEvent,
  op: unknown,
  params: unknown,
): Promise<BridgeReply> {
  if (!isTrustedSender(event.senderFrame)) {
    return { ok: false, status: 403, body: { error: 'untrusted sender' } };
  }
  if (typeof op !== 'string' || op.length > 64 || !OP_NAME.test(op)) {
    return { ok: false, status: 400, body: { type: 'bad request', error: 'unknown operation' } };
  }
  if (!host) return { ok: false, status: 503, body: { error: 'service not started' } };
  return host.invoke(op, params);
}
