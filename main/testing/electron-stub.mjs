/**
 * A stand-in for the `electron` module, enough to run the built main process (out/main/index.js)
 * under plain Node: it records IPC handlers, windows and sent messages, and lets a test drive
 * them (main/main-process.test.ts). Not a browser: no window is ever shown.
 */
import { EventEmitter } from 'node:events';

const paths = new Map([['userData', '/nonexistent']]);
const appEvents = new EventEmitter();
let quitting = false;

export const stub = {
  handlers: new Map(),
  windows: [],
  sent: [],
  opened: [],
  /** Message boxes shown: their options; `dialogAnswer` is the button the "user" picks. */
  dialogs: [],
  dialogAnswer: 0,
  permissionsRefused: 0,
  /** Schemes registered as privileged, and the handlers of custom protocols by scheme. */
  privileged: [],
  protocols: new Map(),
  /** Desktop notifications shown (main/alert-notification.ts): their options. */
  notifications: [],
};

export const app = {
  isPackaged: false,
  setPath: (name, value) => paths.set(name, value),
  getPath: (name) => paths.get(name),
  requestSingleInstanceLock: () => true,
  enableSandbox() {},
  on: (event, fn) => appEvents.on(event, fn),
  whenReady: () => Promise.resolve(),
  quit() {
    if (quitting) return;
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    appEvents.emit('before-quit', event);
    if (event.defaultPrevented) return;
    quitting = true;
    for (const w of stub.windows) w.emit('close');
    process.stdout.write('STUB-QUIT\n');
    process.exit(0);
  },
};

export class BrowserWindow extends EventEmitter {
  static getAllWindows = () => stub.windows;
  constructor(options) {
    super();
    this.options = options;
    this.maximized = false;
    // Enough of WebContents for main's hardening: events, the window-open handler, send.
    this.webContents = Object.assign(new EventEmitter(), {
      send: (...args) => stub.sent.push(args),
      setWindowOpenHandler(fn) {
        this.windowOpenHandler = fn;
      },
    });
    stub.windows.push(this);
    appEvents.emit('web-contents-created', {}, this.webContents);
  }
  static fromWebContents(contents) {
    return stub.windows.find((w) => w.webContents === contents) ?? null;
  }
  loadFile(file) {
    this.loaded = file;
    return Promise.resolve();
  }
  loadURL(url) {
    this.loaded = url;
    return Promise.resolve();
  }
  maximize() {
    this.maximized = true;
  }
  isMaximized() {
    return this.maximized;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {}
  show() {}
  getNormalBounds() {
    return { x: 10, y: 20, width: this.options.width, height: this.options.height };
  }
}

export const dialog = {
  showMessageBox(...args) {
    stub.dialogs.push(args.at(-1));
    return Promise.resolve({ response: stub.dialogAnswer, checkboxChecked: false });
  },
};
export const ipcMain = { handle: (channel, fn) => stub.handlers.set(channel, fn) };
export const nativeTheme = { shouldUseDarkColors: false };
export const protocol = {
  registerSchemesAsPrivileged: (schemes) => stub.privileged.push(...schemes),
  handle: (scheme, fn) => stub.protocols.set(scheme, fn),
};
export const shell = {
  openExternal: (url) => {
    stub.opened.push(url);
    return Promise.resolve();
  },
};
export const safeStorage = {
  isEncryptionAvailable: () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  // Reversible and not plain text: enough to see nothing is stored in the clear.
  encryptString: (s) => Buffer.from(Buffer.from(s, 'utf8').map((b) => b ^ 0x5a)),
  decryptString: (b) => Buffer.from(b.map((x) => x ^ 0x5a)).toString('utf8'),
};
export const session = {
  defaultSession: {
    webRequest: { onHeadersReceived() {} },
    setPermissionRequestHandler() {},
    setPermissionCheckHandler() {},
  },
};
export class Notification extends EventEmitter {
  static isSupported = () => true;
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    stub.notifications.push(this.options);
  }
}
export default { app, BrowserWindow, dialog, ipcMain, nativeTheme, protocol, shell, safeStorage, session, Notification };
