/**
 * The local API token's file (issue 16): created on first start with mode 600, the same on every
 * start after (a restarted service included), a looser mode tightened and said, a broken file
 * replaced, two processes starting at once agreeing, a read-only data dir still starting;
 * compared in constant time.
 */
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../http/server.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';
import { makeReadOnly, mountSkipReason } from '../testing/mounts.ts';
import { API_TOKEN_FILE, loadApiToken, tokenMatches } from './api-token.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

function recorder() {
  const warnings: string[] = [];
  return { warnings, log: { info() {}, warn: (m: string) => void warnings.push(m) } };
}

const SHAPE = /^[A-Za-z0-9_-]{43}$/;
const posix = process.platform !== 'win32';
const mode = (file: string) => statSync(file).mode & 0o777;

describe('the API token file', () => {
  it('is created on first start with mode 600 and is the same on every start after', async () => {
    const dataDir = path.join(dir(), 'nested', 'data');
    const { log, warnings } = recorder();
    const first = await loadApiToken({ dataDir, log });
    expect(first.file).toBe(path.join(dataDir, API_TOKEN_FILE));
    expect(first.token).toMatch(SHAPE);
    expect(readFileSync(first.file!, 'utf8')).toBe(`${first.token}\n`);
    if (posix) expect(mode(first.file!)).toBe(0o600);
    expect(await loadApiToken({ dataDir, log })).toEqual(first);
    expect(warnings).toEqual([]);
    // No temporary file is left behind.
    expect(readdirSync(dataDir)).toEqual([API_TOKEN_FILE]);
  });

  it('is kept by a restarted service, and another data dir gets another token', async () => {
    const dataDir = dir();
    const start = () => startService({ urls: DEAD_UPSTREAM, offline: true, http: false, dataDir });
    const a = await start();
    const token = a.apiToken.token;
    await a.close();
    const b = await start();
    cleanups.push(() => b.close());
    expect(b.apiToken.token).toBe(token);
    expect(b.apiToken.file).toBe(path.join(dataDir, API_TOKEN_FILE));
    const other = await loadApiToken({ dataDir: dir(), log: recorder().log });
    expect(other.token).not.toBe(token);
  });

  it.runIf(posix)('tightens a mode others can read, keeping the token, and says so', async () => {
    const dataDir = dir();
    const first = await loadApiToken({ dataDir, log: recorder().log });
    chmodSync(first.file!, 0o644);
    const { log, warnings } = recorder();
    expect((await loadApiToken({ dataDir, log })).token).toBe(first.token);
    expect(mode(first.file!)).toBe(0o600);
    expect(warnings).toEqual([`${first.file} was readable by other users (mode 644); set to 600`]);
  });

  it('replaces a file that holds no token', async () => {
    for (const content of ['', 'secret\n', 'x'.repeat(44)]) {
      const dataDir = dir();
      const file = path.join(dataDir, API_TOKEN_FILE);
      writeFileSync(file, content, { mode: 0o600 });
      const { log, warnings } = recorder();
      const t = await loadApiToken({ dataDir, log });
      expect(t.token).toMatch(SHAPE);
      expect(readFileSync(file, 'utf8')).toBe(`${t.token}\n`);
      expect(warnings).toHaveLength(1);
    }
  });

  it('is the same for starts racing on an empty data dir', async () => {
    const dataDir = dir();
    const tokens = await Promise.all(Array.from({ length: 8 }, () => loadApiToken({ dataDir, log: recorder().log })));
    expect(new Set(tokens.map((t) => t.token)).size).toBe(1);
    expect(readdirSync(dataDir)).toEqual([API_TOKEN_FILE]);
  });

  it('lives in memory without a data dir', async () => {
    const a = await loadApiToken({ log: recorder().log });
    const b = await loadApiToken({ log: recorder().log });
    expect(a.file).toBeUndefined();
    expect(a.token).toMatch(SHAPE);
    expect(a.token).not.toBe(b.token);
    expect(existsSync(API_TOKEN_FILE)).toBe(false);
  });
});

// Read-only bind mounts need CAP_SYS_ADMIN; skipped, with mountSkipReason, where mounting is not allowed.
describe.skipIf(mountSkipReason !== null)('on a read-only data dir', () => {
  it('reads a token already there, and otherwise uses one for this run only, saying so', async () => {
    const kept = dir();
    const first = await loadApiToken({ dataDir: kept, log: recorder().log });
    const empty = dir();
    for (const d of [kept, empty]) {
      const ro = makeReadOnly(d);
      cleanups.push(ro.cleanup);
    }
    const quiet = recorder();
    expect(await loadApiToken({ dataDir: kept, log: quiet.log })).toEqual(first);
    expect(quiet.warnings).toEqual([]);
    const { log, warnings } = recorder();
    const t = await loadApiToken({ dataDir: empty, log });
    expect(t.file).toBeUndefined();
    expect(t.token).toMatch(SHAPE);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^cannot keep the API token in \S+api-token \(.*read-only file system.*\); using one for this run only$/);
    expect(readdirSync(empty)).toEqual([]);
  });
});

describe('tokenMatches', () => {
  it('accepts the token only, whatever the length sent', () => {
    const t = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE';
    expect(tokenMatches(t, t)).toBe(true);
    for (const sent of ['', t.slice(0, -1), `${t}x`, t.toLowerCase(), `${t.slice(0, -1)}F`])
      expect(tokenMatches(sent, t), sent).toBe(false);
  });
});
