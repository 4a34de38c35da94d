/**
 * The local API token (issue 16): writes over HTTP (the watchlist, alerts, screens) carry it in
 * `X-Marketdesk-Token`. 32 random bytes, base64url, kept in `<data dir>/api-token` with mode 600
 * so only the user's own programs can read it; created on first start and the same on every
 * start after. Without a data dir (tests, embedders) it lives in memory for the process.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmod, link, mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';

export const API_TOKEN_FILE = 'api-token';
/** The header a write carries (HTTP header names are case-insensitive; Node gives them lower case). */

/** 32 bytes in base64url: 43 characters. A file holding anything else is replaced. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export interface ApiToken {
  token: string;
  /** Where it is kept; undefined: memory only. */
  file: string | undefined;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison; the digests make the lengths equal, so the length leaks nothing either. */
export function tokenMatches(sent: string, token: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(sent), digest(token));
}

/**
 * Writes a new token as the file, atomically: a private temporary file is linked into place, so a
 * second process starting at the same moment either wins the link or reads the whole winner.
 */
async function create(file: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(tmp, `${newToken()}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    await unlink(tmp).catch(() => {});
  }
}

async function read(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** POSIX only: a token others can read is no secret, so a looser mode is tightened (and said). */
async function keepPrivate(file: string, log: Logger): Promise<void> {
  if (process.platform === 'win32') return;
  const { mode } = await stat(file);
  if ((mode & 0o077) === 0) return;
  const was = (mode & 0o777).toString(8);
  try {
    await chmod(file, 0o600);
    log.warn(`${file} was readable by other users (mode ${was}); set to 600`);
  } catch (e) {
    log.warn(`${file} is readable by other users (mode ${was}) and could not be set to 600: ${(e as Error).message}`);
  }
}

/** The file's token, created when there is none; a file holding no token is replaced. */
async function fromFile(file: string, log: Logger): Promise<string> {
  let token = await read(file);
  if (token !== undefined && !TOKEN_SHAPE.test(token)) {
    // Emptied or edited by hand: a fresh token beats refusing to start.
    log.warn(`${file} does not hold a token (32 bytes, base64url); writing a new one`);
    await unlink(file);
    token = undefined;
  }
  if (token === undefined) {
    await create(file);
    token = await read(file);
  }
  if (token === undefined || !TOKEN_SHAPE.test(token)) throw new Error('the file was not written whole');
  await keepPrivate(file, log);
  return token;
}

/**
 * The data dir's token, created on first start; memory only without a data dir. A data dir that
 * cannot hold it (read-only, full) gets a token for this run only, as the cache is then kept in
 * memory too (store/storage-state.ts): the service still starts, and says so.
 */
export async function loadApiToken(opts: { dataDir?: string; log: Logger }): Promise<ApiToken> {
  if (opts.dataDir === undefined) return { token: newToken(), file: undefined };
  const file = path.join(opts.dataDir, API_TOKEN_FILE);
  try {
    await mkdir(opts.dataDir, { recursive: true });
    return { token: await fromFile(file, opts.log), file };
  } catch (e) {
    opts.log.warn(`cannot keep the API token in ${file} (${(e as Error).message}); using one for this run only`);
    return { token: newToken(), file: undefined };
  }
}

/** `apiToken.get`: the desktop settings' view of the token, over IPC only (contract `http: false`). */
export function apiTokenHandlers(t: ApiToken): HandlersFor<'apiToken.get'> {
  return { 'apiToken.get': () => ({ token: t.token, header: API_TOKEN_HEADER, file: t.file ?? null }) };
}
