/**
 * Small JSON files in userData (settings, window state, UI state), written atomically so a
 * crash mid-write leaves the previous version, never half a file. No Electron import.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    // Missing or unreadable: the caller falls back to defaults.
    return undefined;
  }
}

export function writeJson(file: string, value: unknown, mode = 0o644): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode });
  renameSync(tmp, file);
}
