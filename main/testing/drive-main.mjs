/**
 * `node --import ./drive-main.mjs out/main/index.js`: runs the built main process against the
 * electron stand-in, drives its IPC handlers as the renderer would, prints one JSON line of
 * what it saw (`DRIVE {...}`), then quits the app the way a user does.
 */
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./electron-loader.mjs', import.meta.url);
const { stub, app } = await import(new URL('./electron-stub.mjs', import.meta.url).href);

const until = async (test) => {
  while (!test()) await new Promise((r) => setImmediate(r));
};

/** Links the page opens, with and without a click just before; what reached the browser and what was asked. */
async function links(contents) {
  const details = (url, extra = {}) => ({ url, frameName: '', features: '', disposition: 'foreground-tab', ...extra });
  const open = (url, extra) => contents.windowOpenHandler(details(url, extra)).action;
  const navigate = (url) => {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    contents.emit('will-navigate', event, url);
    return event.defaultPrevented;
  };
  const click = () => contents.emit('input-event', {}, { type: 'mouseUp' });
  const nav = {};
  // The page on its own: nothing leaves the app.
  nav.scriptOpen = open('https://polymarket.com/event/by-script');
  nav.scriptNavigatePrevented = navigate('https://polymarket.com/event/by-script-2');
  contents.emit('input-event', {}, { type: 'mouseMove' });
  open('https://polymarket.com/event/after-mouse-move');
  nav.openedWithoutClick = [...stub.opened];
  // Clicks: the venue's https pages open; one click opens one link.
  click();
  open('https://polymarket.com/event/clicked');
  click();
  nav.clickNavigatePrevented = navigate('https://docs.polymarket.com/page');
  open('https://polymarket.com/event/second-link-same-click');
  click();
  open('file:///etc/passwd');
  click();
  open('https://polymarket.com/event/form', { postBody: { data: [], contentType: 'application/x-www-form-urlencoded' } });
  // Elsewhere (or plain http): asked first; "Cancel" twice, then "Open in browser".
  click();
  open('http://polymarket.com/event/plain-http');
  click();
  open('https://example.com/cancelled');
  // Main shows its message boxes at once; only what follows the answer waits.
  stub.dialogAnswer = 1;
  click();
  open('https://example.com/accepted');
  await until(() => stub.opened.includes('https://example.com/accepted') || stub.dialogs.length < 3);
  nav.opened = [...stub.opened];
  nav.asked = stub.dialogs.map((d) => d.detail);
  return nav;
}

void (async () => {
  await until(() => stub.handlers.has('marketdesk:invoke') && stub.handlers.has('marketdesk:desktop') && stub.windows.length > 0);
  const win = stub.windows[0];
  const trusted = { senderFrame: { url: pathToFileURL(win.loaded).href, parent: null } };
  const untrusted = { senderFrame: { url: 'https://example.com/', parent: null } };
  const invoke = (event, op, params) => stub.handlers.get('marketdesk:invoke')(event, op, params);
  const desktop = (method, arg) => stub.handlers.get('marketdesk:desktop')(trusted, method, arg);
  const out = {};
  out.window = {
    sandbox: win.options.webPreferences.sandbox,
    contextIsolation: win.options.webPreferences.contextIsolation,
    nodeIntegration: win.options.webPreferences.nodeIntegration,
    args: win.options.webPreferences.additionalArguments,
  };
  out.status = await invoke(trusted, 'service.status', {});
  out.markets = await invoke(trusted, 'markets.list', { limit: 2 });
  out.badParam = await invoke(trusted, 'markets.list', { limit: 1000 });
  out.unknownOp = await invoke(trusted, 'no.such', {});
  out.untrusted = await invoke(untrusted, 'markets.list', {});
  out.settings = await desktop('settings.get');
  out.saveUi = await desktop('uiState.save', { tab: 'events' });
  out.loadUi = await desktop('uiState.load');
  out.storage = await desktop('credentials.storage');
  out.credsBefore = await invoke(trusted, 'credentials.status', {});
  out.credsSet = await invoke(trusted, 'credentials.set', JSON.parse(process.env.DRIVE_CREDS));
  out.credsAfter = await invoke(trusted, 'credentials.status', {});
  out.badOrigins = await desktop('settings.set', { allowedOrigins: ['http://localhost:5173/app'] });
  out.badWsHost = await desktop('settings.set', { clobWsUrl: 'https://ws.example' });
  // The icon scheme answers through the worker: an empty offline cache has no market 1.
  const icon = await stub.protocols.get('marketdesk-icon')?.(new Request('marketdesk-icon://market/1'));
  out.icon = { privileged: stub.privileged, status: icon?.status, body: await icon?.json() };
  out.loaded = win.loaded;
  // A valid change is saved and restarts the core; the window's calls wait for the new one.
  out.wsHost = await desktop('settings.set', { clobWsUrl: 'wss://ws.example.test/' });
  out.afterRestart = await invoke(trusted, 'service.status', {});
  out.nav = await links(win.webContents);
  out.serviceEvents = stub.sent.filter(([ch, name]) => ch === 'marketdesk:event' && name === 'service').map(([, , p]) => p.state);
  process.stdout.write(`DRIVE ${JSON.stringify(out)}\n`);
  app.quit();
})();
