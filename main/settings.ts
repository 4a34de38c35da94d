/**
 * The desktop app's settings (userData/settings.json) and window state. No Electron import.
 */
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS, type DesktopSettings } from '../src/contract/bridge.ts';
import { readJson, writeJson } from './json-file.ts';
import { parseAllowedOrigins } from '../src/contract/origins.ts';
import { DEFAULT_BASE_PORT, DEFAULT_CLOB_PORT } from '../src/contract/ports.ts';
import { normalizeWsHost, WS_HOST_RULE } from '../src/contract/ws-host.ts';

export const DEFAULT_SETTINGS: DesktopSettings = {
  httpEnabled: true,
  basePort: DEFAULT_BASE_PORT,
  clobPort: DEFAULT_CLOB_PORT,
  allowedOrigins: [],
};

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** The horizon's default, as under `npm run serve`. */
export { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS };

const isHorizon = (v: unknown): v is number | 'all' =>
  v === 'all' || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_HORIZON_DAYS);

/** A `clobWsUrl` a `settings.set` may carry: a ws(s) URL, or '' (back to the profile's default). */
const isWsHostInput = (v: unknown): v is string => typeof v === 'string' && (v.trim() === '' || normalizeWsHost(v) !== undefined);

/** Why `input` (a `settings.set` argument) cannot be saved, or undefined; said to the user. */
export function settingsInputError(input: unknown): string | undefined {
  if (input && typeof input === 'object' && 'horizonDays' in input && !isHorizon((input as { horizonDays: unknown }).horizonDays))
    return `the history to keep must be a whole number of days (0 to ${MAX_HORIZON_DAYS}) or all`;
  if (input && typeof input === 'object' && 'clobWsUrl' in input && !isWsHostInput((input as { clobWsUrl: unknown }).clobWsUrl))
    return `the upstream WebSocket host must be ${WS_HOST_RULE}`;
  if (!input || typeof input !== 'object' || !('allowedOrigins' in input)) return undefined;
  const origins = (input as { allowedOrigins: unknown }).allowedOrigins;
  if (!isStringList(origins)) return 'allowed origins must be a list of URLs';
  try {
    parseAllowedOrigins(origins);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

const isPort = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535;

/** Keeps the known, valid fields of `input` over `base`; anything else is dropped. */
export function mergeSettings(base: DesktopSettings, input: unknown): DesktopSettings {
  const out = { ...base };
  if (!input || typeof input !== 'object') return out;
  const v = input as Record<string, unknown>;
  if (typeof v['httpEnabled'] === 'boolean') out.httpEnabled = v['httpEnabled'];
  if (isPort(v['basePort'])) out.basePort = v['basePort'];
  if (isPort(v['clobPort'])) out.clobPort = v['clobPort'];
  if (isHorizon(v['horizonDays'])) out.horizonDays = v['horizonDays'];
  // '' is the profile's default again; a bad value (a hand-edited file) keeps the previous one.
  if (isWsHostInput(v['clobWsUrl'])) {
    const host = normalizeWsHost(v['clobWsUrl']);
    if (host === undefined) delete out.clobWsUrl;
    else out.clobWsUrl = host;
  }
  // All or nothing: a list with a bad entry (a hand-edited file) keeps the previous one.
  if (isStringList(v['allowedOrigins']) && settingsInputError(v) === undefined)
    out.allowedOrigins = parseAllowedOrigins(v['allowedOrigins']);
  return out;
}

/** The core's horizon (WorkerStart.horizonDays) from the settings: the default when unset. */
export function horizonSetting(settings: DesktopSettings): number | 'all' {
  return settings.horizonDays ?? DEFAULT_HORIZON_DAYS;
}

/**
 * The core's upstream WebSocket host (WorkerStart.clobWsUrl): `MARKETDESK_CLOB_WS_URL` when it is
 * a ws(s) URL (as the ports' variables override theirs), else the setting; undefined: the profile's default.
 */
export function clobWsUrlSetting(settings: DesktopSettings, envValue?: string): string | undefined {
  return (envValue !== undefined ? normalizeWsHost(envValue) : undefined) ?? settings.clobWsUrl;
}

export function loadSettings(file: string): DesktopSettings {
  return mergeSettings(DEFAULT_SETTINGS, readJson(file));
}

export function saveSettings(file: string, settings: DesktopSettings): void {
  writeJson(file, settings);
}

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW: WindowState = { width: 1280, height: 800, maximized: false };

export function loadWindowState(file: string): WindowState {
  const v = readJson(file) as Partial<WindowState> | undefined;
  if (!v || typeof v !== 'object') return { ...DEFAULT_WINDOW };
  const num = (n: unknown, min: number) => (typeof n === 'number' && Number.isFinite(n) && n >= min ? Math.round(n) : undefined);
  const width = num(v.width, 400) ?? DEFAULT_WINDOW.width;
  const height = num(v.height, 300) ?? DEFAULT_WINDOW.height;
  const x = typeof v.x === 'number' && Number.isFinite(v.x) ? Math.round(v.x) : undefined;
  const y = typeof v.y === 'number' && Number.isFinite(v.y) ? Math.round(v.y) : undefined;
  return { width, height, maximized: v.maximized === true, ...(x !== undefined && y !== undefined ? { x, y } : {}) };
}

/** The renderer's own state (tab, filters, columns) is opaque here; only its size is bounded. */
export const MAX_UI_STATE_BYTES = 256 * 1024;

export function uiStateBytes(state: unknown): number | null {
  try {
    return Buffer.byteLength(JSON.stringify(state) ?? '');
  } catch {
    return null;
  }
}
