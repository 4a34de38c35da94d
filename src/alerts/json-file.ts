/**
 * The alerts' files beside the cache (alerts.json, alerts-fired.json): read at open, where a
 * missing file is empty and an unreadable one is moved aside (and logged); written whole to a
 * temp file and renamed over. The same rules as src/store/json-list-file.ts, kept here because
 * that module is the SQLite store's side of the store boundary (store-api.test.ts).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { removeStaleTemps, tempPath } from '../store/temp-files.ts';

/** The list under `key` in `file`, the entries `keep` accepts. */
export async function readList<T>(file: string, key: string, keep: (v: unknown) => v is T, log: Logger, now: () => number): Promise<T[]> {
  await removeStaleTemps(file, log);
  let text: string | undefined;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') log.warn(`could not read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) return [];
  try {
    const list = (JSON.parse(text) as Record<string, unknown>)[key];
    if (!Array.isArray(list)) throw new Error(`no ${key} list`);
    return list.filter(keep);
  } catch (e) {
    const aside = `${file}.unreadable-${now()}`;
    log.warn(`${file} is unreadable (${(e as Error).message}); moved to ${aside}`);
    await fsp.rename(file, aside).catch(() => {});
    return [];
  }
}

/** Writes `body` as the whole file, atomically; a failure leaves the old file and no temp. */
export async function writeAtomic(file: string, body: unknown): Promise<void> {
  const tmp = tempPath(file);
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(tmp, `${JSON.stringify(body)}\n`);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}
