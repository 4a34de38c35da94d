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
  out.serviceEvents = stub.sent.filter(([ch, name]) => ch === 'marketdesk:event' && name === 'service').map(([, , p]) => p.state);
  process.stdout.write(`DRIVE ${JSON.stringify(out)}\n`);
  app.quit();
})();
