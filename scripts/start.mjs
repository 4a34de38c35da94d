#!/usr/bin/env node
/**
 * `npm start`: make sure Electron is there (downloading it once if needed), then build and
 * launch the app with electron-vite's preview. Done in one process because electron-vite
 * finds the binary only through node_modules/electron/path.txt or ELECTRON_EXEC_PATH, not
 * through ELECTRON_OVERRIDE_DIST_PATH, so the resolved path is handed over in the environment.
 */
import { ElectronUnavailableError, ensureElectron } from './ensure-electron.mjs';

try {
  process.env.ELECTRON_EXEC_PATH = await ensureElectron();
} catch (err) {
  process.stderr.write(`${err instanceof ElectronUnavailableError ? err.message : String(err)}\n`);
  process.exit(1);
}

const { preview } = await import('electron-vite');
try {
  // Builds main, preload and renderer into out/, then starts Electron on package.json "main";
  // electron-vite exits with Electron's exit code and forwards SIGINT/SIGTERM to it.
  await preview({}, { skipBuild: false });
} catch (err) {
  process.stderr.write(`marketdesk: could not build or launch the app: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
}
