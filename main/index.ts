/**
 * Electron main process: app lifecycle, the one window, security policy, settings and
 * credentials, and the IPC relay to the service core, which runs in a worker thread
 * (main/service-worker.ts via main/service-host.ts). Kept thin; the core lives in `src/`.
 *
 * Environment (tests and development): MARKETDESK_USER_DATA_DIR, MARKETDESK_PROFILE,
 * MARKETDESK_GAMMA_URL / _CLOB_URL / _DATA_URL / _CLOB_WS_URL, MARKETDESK_BASE_PORT / _CLOB_PORT,
 * MARKETDESK_OFFLINE=1, MARKETDESK_SYNC_INTERVAL (seconds).
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  nativeTheme,
  Notification,
  protocol,
  safeStorage,
  session,
  shell,
  type IpcMainInvokeEvent,
  type WebContents,
  type WebFrameMain,
} from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
// The route table only: the main process never loads the contract's validation code (zod).
import { opNames } from '../src/contract/routes.ts';
import { isProfileName, resolveUrls } from '../src/upstream/profiles.ts';
import { rendererCspHeader } from './csp.ts';
import { ICON_SCHEME, ICON_SCHEME_PRIVILEGES, iconResponse } from './icon-protocol.ts';
import { trustedDevServerUrl } from './dev-server.ts';
import { decideLink, GestureTracker, VENUE_SITES } from './navigation.ts';
import { CredentialError, CredentialStore, type Cipher } from './credentials.ts';
import { readJson, writeJson } from './json-file.ts';
import { showAlertNotification } from './alert-notification.ts';
import {
  DESKTOP_CHANNEL,
  DESKTOP_METHODS,
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  OP_NAME,
  OPS_ARG_PREFIX,
  type BridgeReply,
  type CredentialsInput,
  type DesktopEvents,
  type DesktopMethod,
} from '../src/contract/bridge.ts';
import { startServiceHost, type ServiceHost } from './service-host.ts';
import {
  clobWsUrlSetting,
  horizonSetting,
  loadSettings,
  loadWindowState,
  MAX_UI_STATE_BYTES,
  mergeSettings,
  saveSettings,
  settingsInputError,
  uiStateBytes,
  type WindowState,
} from './settings.ts';
import type { WorkerStart } from './worker-protocol.ts';

const env = process.env;
// Before anything reads userData (the single-instance lock is per userData directory).
if (env['MARKETDESK_USER_DATA_DIR']) app.setPath('userData', env['MARKETDESK_USER_DATA_DIR']);

// `npm run dev` only (main/dev-server.ts); everything else loads the built files.
const devServerUrl = trustedDevServerUrl({ isPackaged: app.isPackaged, env, argv: process.argv });
if (env['ELECTRON_RENDERER_URL'] && !devServerUrl) console.warn('ignoring ELECTRON_RENDERER_URL: only `npm run dev` loads a dev server');
// Links to these sites open without asking (main/navigation.ts).
const venueSites = VENUE_SITES[env['MARKETDESK_PROFILE'] ?? 'polymarket'] ?? VENUE_SITES['polymarket']!;
const rendererFile = join(import.meta.dirname, '../renderer/index.html');
const rendererFileUrl = pathToFileURL(rendererFile);
const preloadFile = join(import.meta.dirname, '../preload/index.cjs');
const workerFile = join(import.meta.dirname, 'service-worker.js');

const userData = () => app.getPath('userData');
const file = (name: string) => join(userData(), name);

let mainWindow: BrowserWindow | null = null;
let host: ServiceHost | null = null;
let credentials: CredentialStore | null = null;

// Two instances would write the same cache file; the second one hands over and exits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // Every renderer is sandboxed, including any created by accident.
  app.enableSandbox();
  // Icons come from the core over IPC, not the HTTP faces (which may be off): before ready, as Electron requires.
  protocol.registerSchemesAsPrivileged([{ scheme: ICON_SCHEME, privileges: ICON_SCHEME_PRIVILEGES }]);
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
    credentials = new CredentialStore(file('credentials.bin'), electronCipher);
    host = startServiceHost({
      workerFile,
      start: workerStart,
      log: (level, message) => (level === 'warn' ? console.warn : console.log)(`service: ${message}`),
    });
    host.onEvent((name, payload) => {
      mainWindow?.webContents.send(EVENT_CHANNEL, name, payload);
      // A fired alert is a desktop notification; a click brings the window up on its market.
      if (name === 'alert') showAlertNotification(Notification, payload as DesktopEvents['alert'], openAlert);
    });
    protocol.handle(ICON_SCHEME, (req) =>
      iconResponse(req.url, (op, params) => (host ? host.invoke(op, params) : Promise.reject(new Error('no core')))),
    );
    ipcMain.handle(INVOKE_CHANNEL, handleInvoke);
    ipcMain.handle(DESKTOP_CHANNEL, handleDesktop);
    createWindow();
  });
}

/** A clicked alert notification: the window comes up and the renderer opens the alert's market or event. */
function openAlert(alert: DesktopEvents['alertOpen']): void {
  if (!mainWindow) createWindow();
  const win = mainWindow;
  if (!win) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
  win.webContents.send(EVENT_CHANNEL, 'alertOpen', alert);
}

/** The core's start options: settings, environment overrides, stored credentials. */
function workerStart(): WorkerStart {
  const settings = loadSettings(file('settings.json'));
  const profile = env['MARKETDESK_PROFILE'] ?? 'polymarket';
  const urls = resolveUrls(isProfileName(profile) ? profile : 'polymarket', {
    ...(env['MARKETDESK_GAMMA_URL'] ? { gamma: env['MARKETDESK_GAMMA_URL'] } : {}),
    ...(env['MARKETDESK_CLOB_URL'] ? { clob: env['MARKETDESK_CLOB_URL'] } : {}),
    ...(env['MARKETDESK_DATA_URL'] ? { data: env['MARKETDESK_DATA_URL'] } : {}),
  });
  const port = (v: string | undefined, fallback: number) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : fallback);
  const creds = credentials?.load() ?? envCredentials();
  const interval = port(env['MARKETDESK_SYNC_INTERVAL'], 0);
  const clobWsUrl = clobWsUrlSetting(settings, env['MARKETDESK_CLOB_WS_URL']);
  return {
    dataDir: userData(),
    webRoot: join(import.meta.dirname, '../renderer'),
    http: settings.httpEnabled,
    basePort: port(env['MARKETDESK_BASE_PORT'], settings.basePort),
    clobPort: port(env['MARKETDESK_CLOB_PORT'], settings.clobPort),
    profile: isProfileName(profile) ? profile : 'custom',
    urls,
    ...(clobWsUrl !== undefined ? { clobWsUrl } : {}),
    offline: env['MARKETDESK_OFFLINE'] === '1',
    allowedOrigins: settings.allowedOrigins,
    horizonDays: horizonSetting(settings),
    ...(creds ? { credentials: creds } : {}),
    ...(interval > 0 ? { syncIntervalMs: interval * 1000 } : {}),
  };
}

/** The headless service's variables (docs/cli.md, "serve": `--credentials`) also work for the desktop app. */
function envCredentials(): CredentialsInput | undefined {
  const [apiKey, secret, passphrase, address] = ['API_KEY', 'API_SECRET', 'API_PASSPHRASE', 'ADDRESS'].map((k) => env[`MARKETDESK_${k}`]);
  return apiKey && secret && passphrase && address ? { apiKey, secret, passphrase, address } : undefined;
}

const electronCipher: Cipher = {
  available: () => safeStorage.isEncryptionAvailable(),
  // Linux without a keyring: Electron falls back to a hard-coded key; say so in the dialog.
  weak: () => process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text',
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (data) => safeStorage.decryptString(data),
};

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
  const stateFile = file('window-state.json');
  const saved = loadWindowState(stateFile);
  const win = new BrowserWindow({
    width: saved.width,
    height: saved.height,
    ...(saved.x !== undefined && saved.y !== undefined ? { x: saved.x, y: saved.y } : {}),
    minWidth: 720,
    minHeight: 480,
    title: 'marketdesk',
    show: false,
    // Matches the renderer's theme so the window does not flash white before the first paint.
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#121417' : '#ffffff',
    webPreferences: {
      preload: preloadFile,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      spellcheck: false,
      additionalArguments: [OPS_ARG_PREFIX + opNames.join(',')],
    },
  });
  mainWindow = win;
  if (saved.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    const b = win.getNormalBounds();
    const state: WindowState = { x: b.x, y: b.y, width: b.width, height: b.height, maximized: win.isMaximized() };
    writeJson(stateFile, state);
  });
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  if (devServerUrl) void win.loadURL(devServerUrl);
  else void win.loadFile(rendererFile);
}

/**
 * No navigation away from the app, no new windows, no <webview>. A link the user clicked goes
 * to the browser (main/navigation.ts): the venue's https pages at once, other pages after
 * asking; one the page started by itself goes nowhere.
 */
function hardenContents(contents: WebContents): void {
  const gestures = new GestureTracker();
  contents.on('input-event', (_event, input) => gestures.note(input.type));
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    openExternally(contents, url, gestures.consume());
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url, postBody }) => {
    // A form posting into a new window is not a link.
    openExternally(contents, url, gestures.consume() && postBody === undefined);
    return { action: 'deny' };
  });
}

function openExternally(contents: WebContents, url: string, gesture: boolean): void {
  const decision = decideLink(url, { gesture, sites: venueSites });
  if (decision.action === 'refuse') {
    console.warn(`not opened (${gesture ? 'not an http(s) link' : 'no click or key press'}): ${url.slice(0, 200)}`);
    return;
  }
  const href = decision.href!;
  if (decision.action === 'open') {
    void shell.openExternal(href);
    return;
  }
  const options = {
    type: 'question' as const,
    buttons: ['Cancel', 'Open in browser'],
    defaultId: 0,
    cancelId: 0,
    message: 'Open this link in your browser?',
    detail: href,
  };
  const win = BrowserWindow.fromWebContents(contents);
  void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options)).then(({ response }) => {
    if (response === 1) void shell.openExternal(href);
  });
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

/** A desktop request the renderer got wrong (answered 400). */
class BadRequest extends Error {}

const UNTRUSTED: BridgeReply = { ok: false, status: 403, body: { error: 'untrusted sender' } };

async function handleInvoke(event: IpcMainInvokeEvent, op: unknown, params: unknown): Promise<BridgeReply> {
  if (!isTrustedSender(event.senderFrame)) return UNTRUSTED;
  if (typeof op !== 'string' || op.length > 64 || !OP_NAME.test(op) || !opNames.includes(op as never)) {
    return { ok: false, status: 400, body: { type: 'bad request', error: 'unknown operation' } };
  }
  if (!host) return { ok: false, status: 503, body: { error: 'service not started' } };
  if (op === 'credentials.clear') credentials?.clear();
  const reply = await host.invoke(op, params);
  if (op === 'credentials.set' && reply.ok) {
    // The core took them (it validated them); keep them for the next start, encrypted.
    try {
      credentials?.set(params);
    } catch (e) {
      return { ok: false, status: 500, body: { error: `in use for this session, but not stored: ${(e as Error).message}` } };
    }
  }
  return reply;
}

async function handleDesktop(event: IpcMainInvokeEvent, method: unknown, arg: unknown): Promise<BridgeReply> {
  if (!isTrustedSender(event.senderFrame)) return UNTRUSTED;
  if (typeof method !== 'string' || !DESKTOP_METHODS.includes(method as DesktopMethod)) {
    return { ok: false, status: 400, body: { error: 'unknown method' } };
  }
  try {
    return { ok: true, result: await desktopMethod(method as DesktopMethod, arg) };
  } catch (e) {
    if (e instanceof CredentialError || e instanceof BadRequest) return { ok: false, status: 400, body: { error: e.message } };
    console.warn(`desktop ${method} failed: ${(e as Error).message}`);
    return { ok: false, status: 500, body: { error: 'internal error' } };
  }
}

async function desktopMethod(method: DesktopMethod, arg: unknown): Promise<unknown> {
  switch (method) {
    case 'uiState.load':
      return readJson(file('ui-state.json')) ?? null;
    case 'uiState.save': {
      const bytes = uiStateBytes(arg);
      if (bytes === null || bytes > MAX_UI_STATE_BYTES) throw new BadRequest('UI state too large');
      writeJson(file('ui-state.json'), arg);
      return null;
    }
    case 'settings.get':
      return loadSettings(file('settings.json'));
    case 'settings.set': {
      const invalid = settingsInputError(arg);
      if (invalid) throw new BadRequest(invalid);
      const before = loadSettings(file('settings.json'));
      const after = mergeSettings(before, arg);
      saveSettings(file('settings.json'), after);
      // The faces are bound at start: a change takes a restart of the core.
      if (JSON.stringify(before) !== JSON.stringify(after)) await host?.restart();
      return after;
    }
    case 'credentials.storage':
      return credentials!.storage();
    case 'service.state':
      return host?.state() ?? { state: 'stopped', restarts: 0 };
  }
}
