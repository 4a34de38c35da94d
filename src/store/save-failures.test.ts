/**
 * Writes the disk refuses, without root: the disk layer's fault hook makes the real file calls
 * fail with ENOSPC or EIO, as a full or failing disk would, until it is removed. A refused
 * COMMIT is rolled back by SQLite, so the file keeps the state before it. The file systems that
 * really fill up or refuse writes are in src/service/storage-status.test.ts (root).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StorageStatus } from '../contract/types.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import type { Logger } from '../logger.ts';
import { sqlDisk, writeFileAtomic } from './sqlite.ts';
import { backoffMs, UnsavedChangesError } from './storage-state.ts';
import type { FaultHook } from './engine/wasm-disk.ts';

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
  const store = await CatalogStore.open({ dataDir: dir, log, persistRetry: { minMs: 20, maxMs: 80 } });
  store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  store.apply({ markets: fixtureMarkets() });
  return store;
}

/** Makes the real file calls on `dir`'s cache fail with `code` until the returned function is called. */
async function fault(dir: string, code: string, ops: Parameters<FaultHook>[0][] = ['write', 'sync', 'truncate']): Promise<() => void> {
  const { disk } = await sqlDisk();
  disk!.setFault((op, file) => (file.startsWith(path.join(dir, CACHE_FILE)) && ops.includes(op) ? code : undefined));
  const off = () => disk!.setFault(undefined);
  cleanups.push(off);
  return off;
}

/** One market, changed, so the store has something new to save. */
function change(store: CatalogStore, question: string): void {
  store.apply({ markets: [{ ...fixtureMarkets()[0]!, question, updatedAt: new Date().toISOString() }] });
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.tmp-'));
const MARKET = fixtureMarkets()[0]!;

describe('stale temp files', () => {
  it("of an earlier build's interrupted saves are removed at open when their process is gone; a live one keeps its own", async () => {
    const dir = tmp();
    await (await saved(dir)).close();
    const file = path.join(dir, CACHE_FILE);
    // A pid that was alive and no longer is.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const live = process.ppid;
    for (const pid of [dead, process.pid, live]) writeFileSync(`${file}.tmp-${pid}`, Buffer.alloc(64 * 1024, 1));
    // A first sync's search index, built beside the cache by a process killed before it was copied in.
    writeFileSync(`${file}.tmp-${dead}-search`, Buffer.alloc(64 * 1024, 1));
    writeFileSync(`${file}.tmp-${live}-search`, Buffer.alloc(64 * 1024, 1));
    writeFileSync(path.join(dir, 'notes.tmp-1'), 'not ours');

    const log = capture();
    const store = await CatalogStore.open({ dataDir: dir, log });
    cleanups.push(() => store.close());
    expect(temps(dir).sort()).toEqual([`${CACHE_FILE}.tmp-${live}`, `${CACHE_FILE}.tmp-${live}-search`, 'notes.tmp-1'].sort());
    expect(log.infos.join('\n')).toMatch(/removed 3 temp file\(s\) left by interrupted saves/);
    expect(store.reader.counts().markets).toBeGreaterThan(0);
  });
});

describe('a refused write', () => {
  it('shows in the storage status with time and reason, is probed again with backoff, logged once, and cleared by a success', async () => {
    const dir = tmp();
    const log = capture();
    const store = await saved(dir, log);
    cleanups.push(() => store.close().catch(() => undefined));
    const file = path.join(dir, CACHE_FILE);
    const events: StorageStatus[] = [];
    store.storage.onChange((s) => events.push(s));
    expect(store.storageStatus()).toMatchObject({ file, writable: true, lastSaveError: null, unsavedSince: null, nextRetryAt: null });

    const off = await fault(dir, 'ENOSPC');
    const t0 = Date.now();
    // The batch fails at its COMMIT, and its caller (the sync) is told.
    expect(() => change(store, 'Changed while the disk refuses')).toThrow('database or disk is full');
    expect(store.reader.getMarket(Number(MARKET.id))?.question).toBe(MARKET.question);
    await expect.poll(() => store.storage.failures, poll).toBeGreaterThanOrEqual(4);
    const st = store.storageStatus();
    expect(st.lastSaveError).toMatchObject({ code: 'ENOSPC', reason: 'disk full (ENOSPC)' });
    expect(Date.parse(st.lastSaveError!.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(st.unsavedSince!)).toBeGreaterThanOrEqual(t0);
    expect(st.writable).toBe(true);
    // Each failure was told to listeners, with the next attempt announced.
    expect(events.some((e) => e.lastSaveError && e.nextRetryAt)).toBe(true);
    // Logged once for the reason, not once per retry.
    expect(log.warns.filter((w) => w.includes('saving the cache')).length).toBe(1);
    expect(temps(dir)).toEqual([]);

    off();
    await expect.poll(() => store.storageStatus().lastSaveError, poll).toBeNull();
    expect(store.storageStatus()).toMatchObject({ unsavedSince: null, nextRetryAt: null, writable: true });
    expect(Date.parse(store.storageStatus().lastSaveAt!)).toBeGreaterThanOrEqual(t0);
    expect(log.infos.join('\n')).toMatch(/saved again after \d+ failed attempt/);
    change(store, 'Changed after the disk recovered');
    await store.close();
    expect(readdirSync(dir)).toEqual([CACHE_FILE]);
    const again = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => again.close());
    expect(again.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(again.reader.getMarket(Number(MARKET.id))?.question).toBe('Changed after the disk recovered');
  });

  it('writeFileAtomic removes its partial copy when the final rename fails', async () => {
    const dir = tmp();
    const file = path.join(dir, CACHE_FILE);
    // A non-empty directory where the file goes: the copy is written, the rename refused.
    mkdirSync(path.join(file, 'in-the-way'), { recursive: true });
    await expect(writeFileAtomic(file, Buffer.alloc(64 * 1024, 1))).rejects.toThrow();
    expect(temps(dir)).toEqual([]);
  });

  it('waits 5 s, doubling to 5 min, between retries by default', () => {
    const d = { minMs: 5_000, maxMs: 300_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map((n) => backoffMs(n, d))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('at close, still releases the store and says what was lost; the file keeps every commit before', async () => {
    const dir = tmp();
    const store = await saved(dir);
    const counts = store.reader.counts();
    const savedAt = store.storageStatus().lastSaveAt!;
    await fault(dir, 'EIO');
    expect(() => change(store, 'Lost at shutdown')).toThrow(/disk I\/O error/);
    await expect.poll(() => store.storage.failures, poll).toBeGreaterThanOrEqual(1);
    const err = await store.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsavedChangesError);
    expect((err as Error).message).toMatch(
      new RegExp(
        `^the cache was not saved: I/O error \\(EIO\\); changes since \\S+Z are lost \\(the file on disk holds the state of ${savedAt}\\)$`,
      ),
    );
    // Released all the same: a second close is a no-op, not a second failure.
    await expect(store.close()).resolves.toBeUndefined();
    (await sqlDisk()).disk!.setFault(undefined);
    const again = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => again.close());
    expect(again.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(again.reader.counts()).toEqual(counts);
    expect(again.reader.getMarket(Number(MARKET.id))?.question).toBe(MARKET.question);
  });
});
