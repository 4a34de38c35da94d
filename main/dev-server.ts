/**
 * Whether the window may load the renderer from Vite's dev server instead of the built files.
 * Only under `npm run dev`: the URL comes from the environment, and an `npm start` that
 * inherited a stray ELECTRON_RENDERER_URL must not hand the window (and its bridge to the
 * service and the credentials) to whatever that URL serves. No Electron import.
 */

/** Passed to Electron by package.json's "dev" script (`electron-vite dev -- --marketdesk-dev`). */
export const DEV_FLAG = '--marketdesk-dev';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface DevServerInput {
  isPackaged: boolean;
  env: Record<string, string | undefined>;
  argv: readonly string[];
}

/**
 * The dev server's URL when all of these hold, else undefined: the app is not packaged, it was
 * started with DEV_FLAG, electron-vite says it is serving (`NODE_ENV_ELECTRON_VITE`, which its
 * build and preview set to `production`), and the URL is an http(s) address on this machine.
 */
export function trustedDevServerUrl({ isPackaged, env, argv }: DevServerInput): string | undefined {
  const raw = env['ELECTRON_RENDERER_URL'];
  if (isPackaged || raw === undefined || !argv.includes(DEV_FLAG) || env['NODE_ENV_ELECTRON_VITE'] !== 'development') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !LOOPBACK.has(url.hostname))
    return undefined;
  return url.href;
}
