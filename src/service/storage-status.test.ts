/**
 * /status `storage` and the `storage` push event on real file systems that fail: a 30 MiB
 * tmpfs filled up (ENOSPC) and a read-only bind mount (EROFS). The cache is written in place, so
 * a write the disk refuses fails at its COMMIT (SQLite rolls it back) and the file stays as it
 * was. Mounting needs root; without it these skip, with the reason printed.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushEvents, PushName, ServiceStatus } from '../contract/index.ts';
import { CACHE_FILE, CatalogStore } from '../store/catalog-store.ts';
import { UnsavedChangesError } from '../store/storage-state.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { makeReadOnly, mountSkipReason, mountTmpfs } from '../testing/mounts.ts';
import { startService, type Service } from '../http/server.ts';

if (mountSkipReason) console.log(`skipping the ENOSPC and read-only storage tests: ${mountSkipReason}`);

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const poll = { interval: 20, timeout: 120_000 };
const MARKET = fixtureMarkets()[0]!;

/** Writes the fixture catalog to `dir`'s cache file; returns its counts. */
async function seed(dir: string) {
  const store = await CatalogStore.open({ dataDir: dir });
  store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  store.apply({ markets: fixtureMarkets() });
  const counts = store.reader.counts();
  await store.close();
  return counts;
}

async function serve(dataDir: string): Promise<Service & { pushed: { name: PushName; payload: unknown }[] }> {
  const service = await startService({
    dataDir,
    offline: true,
    urls: DEAD_UPSTREAM,
    basePort: 0,
    clobPort: 0,
    persistDelayMs: 5,
    persistRetry: { minMs: 20, maxMs: 100 },
  });
  const pushed: { name: PushName; payload: unknown }[] = [];
  service.push.subscribe((name, payload) => pushed.push({ name, payload }));
  return Object.assign(service, { pushed });
}

async function status(s: Service): Promise<ServiceStatus> {
  return (await (await fetch(`${s.baseUrl}/status`)).json()) as ServiceStatus;
}

/** Reads GET /stream until a `storage` event passes `test`. */
async function streamedStorage(s: Service, test: (p: PushEvents['storage']) => boolean): Promise<PushEvents['storage']> {
  const res = await fetch(`${s.baseUrl}/stream`);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      text += value;
      for (const m of text.matchAll(/^event: storage\ndata: (.+)$/gm)) {
        const p = JSON.parse(m[1]!) as PushEvents['storage'];
        if (test(p)) return p;
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

function change(store: CatalogStore, question: string): void {
  store.apply({ markets: [{ ...MARKET, question, updatedAt: new Date().toISOString() }] });
}

/** Fills the file system of `dir` to the last byte. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(1 << 20, 7);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
}

const temps = (dir: string) => readdirSync(dir).filter((n) => n.includes('.tmp-'));

// Needs a small tmpfs and read-only bind mounts (CAP_SYS_ADMIN); skipped, with mountSkipReason, where mounting is not allowed.
describe.skipIf(mountSkipReason !== null)('storage on a full or read-only disk', () => {
  it('a full disk (ENOSPC): /status and the push event show the failure; the old file is intact; freeing space recovers', async () => {
    const m = mountTmpfs('30m');
    cleanups.push(m.cleanup);
    const dir = path.join(m.dir, 'data');
    const counts = await seed(dir);
    const file = path.join(dir, CACHE_FILE);
    const before = readFileSync(file);
    const filler = path.join(m.dir, 'filler');
    fill(filler);

    const s = await serve(dir);
    cleanups.push(() => s.close());
    expect((await status(s)).storage).toMatchObject({ file, writable: true, lastSaveError: null, unsavedSince: null });
    const t0 = Date.now();
    // The batch is refused at its COMMIT, and the caller (the sync) is told.
    expect(() => change(s.store, 'Changed on a full disk')).toThrow(/database or disk is full/);
    await expect.poll(async () => (await status(s)).storage.lastSaveError, poll).not.toBeNull();
    const st = (await status(s)).storage;
    expect(st.lastSaveError).toMatchObject({ reason: 'disk full (ENOSPC)', code: 'ENOSPC' });
    expect(Date.parse(st.lastSaveError!.at)).toBeGreaterThanOrEqual(t0);
    expect(Date.parse(st.unsavedSince!)).toBeGreaterThanOrEqual(t0);
    expect(st.writable).toBe(true);
    // Pushed as it happened, with the next attempt announced.
    const pushed = s.pushed.filter((e) => e.name === 'storage').map((e) => e.payload as PushEvents['storage']);
    expect(pushed.some((p) => p.lastSaveError?.code === 'ENOSPC' && p.nextRetryAt !== null)).toBe(true);
    expect((await streamedStorage(s, (p) => p.lastSaveError?.code === 'ENOSPC')).unsavedSince).not.toBeNull();
    // Probed again with backoff; the catalog is still served as it was.
    await expect.poll(() => s.store.storage.failures, poll).toBeGreaterThanOrEqual(3);
    expect(s.store.reader.getMarket(Number(MARKET.id))?.question).toBe(MARKET.question);
    expect(temps(dir)).toEqual([]);

    rmSync(filler);
    await expect.poll(async () => (await status(s)).storage.lastSaveError, poll).toBeNull();
    expect((await status(s)).storage).toMatchObject({ unsavedSince: null, nextRetryAt: null, writable: true });
    // The next batch (the sync's retry) goes through.
    change(s.store, 'Changed after space was freed');
    await s.close();
    const after = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => after.close());
    expect(after.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(after.reader.counts()).toEqual(counts);
    expect(after.reader.getMarket(Number(MARKET.id))?.question).toBe('Changed after space was freed');
    expect(before.length).toBeGreaterThan(0);
  });

  it('a read-only data dir: served read-only with the reason; saves fail visibly; the file stays; close says what was lost', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const counts = await seed(t.dir);
    const file = path.join(t.dir, CACHE_FILE);
    const before = readFileSync(file);
    cleanups.push(makeReadOnly(t.dir).cleanup);

    const s = await serve(t.dir);
    let closed = false;
    cleanups.push(() => (closed ? undefined : s.close().catch(() => undefined)));
    const st = await status(s);
    expect(st.counts).toEqual(counts);
    expect(st.storage).toMatchObject({
      file,
      writable: false,
      readOnlyReason: 'read-only file system (EROFS)',
      openError: null,
      lastSaveError: null,
      unsavedSince: null,
    });
    expect(Date.parse(st.storage.lastSaveAt!)).toBeGreaterThan(0);

    expect(() => change(s.store, 'Changed on a read-only disk')).toThrow(/readonly database/);
    await expect.poll(async () => (await status(s)).storage.lastSaveError?.code, poll).toBe('EROFS');
    expect((await status(s)).storage.unsavedSince).not.toBeNull();
    expect(s.pushed.some((e) => e.name === 'storage' && (e.payload as PushEvents['storage']).lastSaveError?.code === 'EROFS')).toBe(true);
    const err = await s.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    closed = true;
    expect(err).toBeInstanceOf(UnsavedChangesError);
    expect((err as Error).message).toMatch(
      /^the cache was not saved: read-only file system \(EROFS\); changes since \S+ are lost \(the file on disk holds the state of \S+\)$/,
    );
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(readdirSync(t.dir)).toEqual([CACHE_FILE]);
  });

  it('a read-only data dir holding an unreadable cache: served empty from memory with the reason, the file left as it is', async () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const file = path.join(t.dir, CACHE_FILE);
    const garbage = 'this is not a database, and it cannot be moved aside';
    writeFileSync(file, garbage);
    mkdirSync(path.join(t.dir, 'sub'));
    const ro = makeReadOnly(t.dir);
    cleanups.push(ro.cleanup);

    // A data dir that cannot even be created is read-only too.
    const missing = await serve(path.join(t.dir, 'sub', 'missing'));
    expect((await status(missing)).storage).toMatchObject({
      writable: false,
      readOnlyReason: 'read-only file system (EROFS)',
      openError: null,
    });
    await missing.close();

    const s = await serve(t.dir);
    // Its close fails (what was synced is lost), as checked below.
    cleanups.push(() => s.close().catch(() => undefined));
    const st = await status(s);
    expect(st.counts.markets).toBe(0);
    expect(st.storage).toMatchObject({ writable: false, readOnlyReason: 'read-only file system (EROFS)', movedAside: null });
    expect(st.storage.openError).toMatch(/not a database/);
    expect(await (await fetch(`${s.baseUrl}/markets`)).json()).toEqual([]);
    // Kept in memory (served), and said not to be saved.
    change(s.store, 'Synced while read-only');
    expect(s.store.reader.getMarket(Number(MARKET.id))?.question).toBe('Synced while read-only');
    await expect.poll(async () => (await status(s)).storage.lastSaveError?.code, poll).toBe('EROFS');
    const err = await s.close().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UnsavedChangesError);
    expect((err as Error).message).toMatch(/the file on disk is the unreadable one found at start/);
    expect(readFileSync(file, 'utf8')).toBe(garbage);
    expect(readdirSync(t.dir).sort()).toEqual([CACHE_FILE, 'sub']);
  });
});
