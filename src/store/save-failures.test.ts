/**
 * Saves that fail, without root: a directory where the temp file goes makes every save fail
 * at its first step (EISDIR), as a full disk would, until it is removed. The file systems
 * that really fill up or refuse writes are in src/service/storage-status.test.ts (root).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageStatus } from '../contract/types.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { persistLive } from './live-persist.ts';
import { sqlEngine, sqlFileAccess, writeFileAtomic, type Logger } from './sqlite.ts';
import { backoffMs, UnsavedChangesError } from './storage-state.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

const poll = { interval: 10, timeout: 120_000 };

function capture(): Logger & { infos: string[]; warns: string[] } {
  const infos: string[] = [];
  const warns: string[] = [];
  return { infos, warns, info: (m) => infos.push(m), warn: (m) => warns.push(m) };
}

/** A store with the fixtures saved in `dir`. */
async function saved(dir: string, log: Logger = capture()): Promise<CatalogStore> {
  const store = await CatalogStore.open({ dataDir: dir, log, persistDelayMs: 5, persistRetry: { minMs: 20, maxMs: 80 } });
  store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  store.apply({ markets: fixtureMarkets() });
  await store.persist();
  return store;
}

/** One market, changed, so the store has something new to save. */
function change(store: CatalogStore, question: string): void {
  store.apply({ markets: [{ ...fixtureMarkets()[0]!, question, updatedAt: new Date().toISOString() }] });
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.tmp-'));

describe('stale temp files', () => {
  it('are removed at open when their process is gone (or is this one); a live process keeps its own', async () => {
    const dir = tmp();
    await (await saved(dir)).close();
    const file = path.join(dir, CACHE_FILE);
    const before = readFileSync(file);
    // A pid that was alive and no longer is.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = process.ppid;
    for (const pid of [dead, process.pid, live]) writeFileSync(`${file}.tmp-${pid}`, Buffer.alloc(64 * 1024, 1));
    writeFileSync(path.join(dir, 'notes.tmp-1'), 'not ours');

    const log = capture();
    const store = await CatalogStore.open({ dataDir: dir, log });
    cleanups.push(() => store.close());
    expect(temps(dir).sort()).toEqual([`${CACHE_FILE}.tmp-${live}`, 'notes.tmp-1'].sort());
    expect(log.infos.join('\n')).toMatch(/removed 2 temp file\(s\) left by interrupted saves/);
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(store.reader.counts().markets).toBeGreaterThan(0);
  });
});

describe('a failed save', () => {
  it('shows in the storage status with time and reason, is retried with backoff, logged once, and cleared by a success', async () => {
    const dir = tmp();
    const log = capture();
    const store = await saved(dir, log);
    cleanups.push(() => store.close());
    const file = path.join(dir, CACHE_FILE);
    const before = readFileSync(file);
    const events: StorageStatus[] = [];
    store.storage.onChange((s) => events.push(s));
    expect(store.storageStatus()).toMatchObject({ file, writable: true, lastSaveError: null, unsavedSince: null, nextRetryAt: null });

    const blocker = `${file}.tmp-${process.pid}`;
    mkdirSync(blocker);
    const t0 = Date.now();
    change(store, 'Changed while the disk refuses');
    await expect.poll(() => store.storage.failures, poll).toBeGreaterThanOrEqual(4);
    const st = store.storageStatus();
    expect(st.lastSaveError?.code).toBe('EISDIR');
    expect(st.lastSaveError?.reason).toContain('EISDIR');
    expect(Date.parse(st.lastSaveError!.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(st.unsavedSince!)).toBeGreaterThanOrEqual(t0);
    expect(st.writable).toBe(true);
    // Each failure was told to listeners, with the next attempt announced.
    expect(events.some((e) => e.lastSaveError && e.nextRetryAt)).toBe(true);
    // Logged once for the reason, not once per retry.
    expect(log.warns.filter((w) => w.includes('saving the cache')).length).toBe(1);
    // The old file is untouched and nothing else was written.
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(temps(dir)).toEqual([path.basename(blocker)]);

    rmdirSync(blocker);
    await expect.poll(() => store.storageStatus().lastSaveError, poll).toBeNull();
    expect(store.storageStatus()).toMatchObject({ unsavedSince: null, nextRetryAt: null, writable: true });
    expect(Date.parse(store.storageStatus().lastSaveAt!)).toBeGreaterThanOrEqual(t0);
    expect(log.infos.join('\n')).toMatch(/saved again after \d+ failed attempt/);
    expect(temps(dir)).toEqual([]);
    await store.close();
    const again = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => again.close());
    expect(again.reader.getMarket(Number(fixtureMarkets()[0]!.id))?.question).toBe('Changed while the disk refuses');
  });

  it('removes its partial copy when the final rename fails, in both ways of writing', async () => {
    const dir = tmp();
    const file = path.join(dir, CACHE_FILE);
    // A non-empty directory where the file goes: the copy is written, the rename refused.
    mkdirSync(path.join(file, 'in-the-way'), { recursive: true });
    await expect(writeFileAtomic(file, Buffer.alloc(64 * 1024, 1))).rejects.toThrow();
    expect(temps(dir)).toEqual([]);
    const SQL = await sqlEngine();
    const db = new SQL.Database();
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (zeroblob(300000))');
    await expect(persistLive((await sqlFileAccess())!, db, file)).rejects.toThrow();
    expect(temps(dir)).toEqual([]);
  });

  it('waits 5 s, doubling to 5 min, between retries by default', () => {
    const d = { minMs: 5_000, maxMs: 300_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => backoffMs(n, d))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('at close, still releases the store and says what was lost', async () => {
    const dir = tmp();
    const store = await saved(dir);
    const file = path.join(dir, CACHE_FILE);
    const counts = store.reader.counts();
    const before = readFileSync(file);
    const savedAt = store.storageStatus().lastSaveAt!;
    mkdirSync(`${file}.tmp-${process.pid}`);
    change(store, 'Lost at shutdown');
    const err = await store.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsavedChangesError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^the cache was not saved: .*EISDIR.*; changes since \\S+Z are lost \\(the file on disk holds the state of ${savedAt}\\)$`,
      ),
    );
    // Released all the same: a second close is a no-op, not a second failure.
    await expect(store.close()).resolves.toBeUndefined();
    expect(readFileSync(file).equals(before)).toBe(true);
    rmdirSync(`${file}.tmp-${process.pid}`);
    const again = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => again.close());
    expect(again.reader.counts()).toEqual(counts);
    expect(existsSync(`${file}.tmp-${process.pid}`)).toBe(false);
  });
});
