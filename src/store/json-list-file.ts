/**
 * The small JSON lists kept beside the cache (watchlist.json, screens.json): read at open, where a
 * missing file is an empty list and an unreadable one is moved aside (and logged); written whole
 * to a temp file and renamed over, so a crash leaves the old list or the new one.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import { removeStaleTemps, tempPath } from './temp-files.ts';

/** The list under `key` in `file`, the entries `keep` accepts; `what` names the file in the log. */
export async function readJsonList<T>(
  file: string,
  key: string,
  keep: (v: unknown) => v is T,
  what: string,
  o: { log: Logger; now: () => number },
): Promise<T[]> {
  await removeStaleTemps(file, o.log);
  let text: string | undefined;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') o.log.warn(`could not read ${file}: ${(e as Error).message}`);
  }
  if (text === undefined) return [];
  try {
    const list = (JSON.parse(text) as Record<string, unknown>)[key];
    if (!Array.isArray(list)) throw new Error(`no ${key} list`);
    return list.filter(keep);
  } catch (e) {
    const aside = `${file}.unreadable-${o.now()}`;
    o.log.warn(`${file} is not ${what} (${(e as Error).message}); moved to ${aside}`);
    await fsp.rename(file, aside).catch(() => {});
    return [];
  }
}

/** Writes `body` as the whole file, atomically; a failure leaves the old file and no temp. */
export async function writeJsonAtomic(file: string, body: unknown): Promise<void> {
  const tmp = tempPath(file);
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`);
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true }).catch(() => {});
    throw e;
  }
}
