import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseParams, operations } from '../contract/index.ts';
import { fixtureEvents, fixtureMarkets, fixtureTags, readFixture, tempDir } from '../testing/fixtures.ts';
import type { GammaMarket } from '../contract/gamma.ts';
import { CACHE_FILE, CatalogStore } from './catalog-store.ts';
import { PAGE_SIZE } from './schema.ts';
import { sqlEngine } from './sqlite.ts';

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function tmp(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

function listAll(store: CatalogStore) {
  const p = parseParams(operations['markets.list'].params, { limit: '100', order: 'volume' });
  if (!p.ok) throw new Error(p.message);
  return store.reader.listMarkets(p.value);
}

async function loaded(dataDir?: string): Promise<CatalogStore> {
  const store = await CatalogStore.open({ ...(dataDir ? { dataDir } : {}), persistDelayMs: 10 });
  store.apply({ tags: fixtureTags(), events: fixtureEvents() });
  store.apply({ markets: fixtureMarkets() });
  return store;
}

describe('CatalogStore bulk load', () => {
  it('on disk, ends back in WAL mode with a checkpoint that works at once', async () => {
    const store = await CatalogStore.open({ dataDir: tmp() });
    cleanups.push(() => store.close());
    await store.bulkLoad(async () => {
      store.apply({ tags: fixtureTags(), events: fixtureEvents() });
      store.apply({ markets: fixtureMarkets() });
    });
    // The first checkpoint after the load used to answer "database table is locked".
    await expect(store.persist()).resolves.toBeUndefined();
    expect(store.storageStatus().lastSaveError).toBeNull();
  });

  it('leaves statistics that count each status group whole, so closed=false by volume reads its index in order', async () => {
    const store = await CatalogStore.open();
    cleanups.push(() => store.close());
    // More open markets than an index sample (SQLite's analysis_limit reads the first entries only).
    const markets = Array.from(
      { length: 6000 },
      (_, i): GammaMarket => ({
        id: String(i + 1),
        question: `Market ${i + 1}?`,
        slug: `market-${i + 1}`,
        active: true,
        closed: i % 10 === 0,
        volumeNum: (i * 7919) % 10_007,
        volume24hr: (i * 104_729) % 1009,
        updatedAt: '2026-11-01T00:00:00Z',
      }),
    );
    await store.bulkLoad(async () => {
      for (let i = 0; i < markets.length; i += 100) store.apply({ markets: markets.slice(i, i + 100) });
    });
    const st = store.statements;
    const stat = String(st.value("SELECT stat FROM sqlite_stat1 WHERE idx = 'markets_status_volume'"));
    // Rows, then rows per `closed` value: 6,000 over two values.
    expect(stat.split(' ').slice(0, 2).map(Number)).toEqual([6000, 3000]);
    const seen: [string, unknown[]][] = [];
    st.trace = (sql, bind) => {
      if (sql.startsWith('SELECT m.id FROM markets m')) seen.push([sql, bind]);
    };
    const p = parseParams(operations['markets.list'].params, { limit: '20', offset: '2', closed: 'false', order: 'volume' });
    if (!p.ok) throw new Error(p.message);
    const page = store.reader.listMarkets(p.value);
    st.trace = undefined;
    const open = markets.filter((m) => !m.closed).sort((a, b) => Number(b.volumeNum) - Number(a.volumeNum) || Number(b.id) - Number(a.id));
    expect(page.map((m) => m.id)).toEqual(open.slice(2, 22).map((m) => m.id));
    const [sql, bind] = seen[0]!;
    const plan = st.db
      .exec(`EXPLAIN QUERY PLAN ${sql}`, bind as never)[0]!
      .values.map((r) => String(r[3]))
      .join(' | ');
    expect(plan).toMatch(/COVERING INDEX markets_status_volume \(closed=\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  });
});

describe('CatalogStore persistence', () => {
  it('keeps the catalog across a restart', async () => {
    const dir = tmp();
    const a = await loaded(dir);
    const counts = a.reader.counts();
    const page = listAll(a);
    await a.close();
    expect(existsSync(path.join(dir, CACHE_FILE))).toBe(true);

    const b = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => b.close());
    expect(b.movedAside).toBeUndefined();
    expect(b.reader.counts()).toEqual(counts);
    expect(listAll(b)).toEqual(page);
  });

  it('a new cache has 16 KiB pages; one from before, with 4 KiB pages, opens and keeps them', async () => {
    const fresh = await CatalogStore.open();
    cleanups.push(() => fresh.close());
    expect(fresh.statements.value('PRAGMA page_size')).toBe(PAGE_SIZE);

    // A 4 KiB-page cache: made by hand the old way (page size set before the schema).
    const dir = tmp();
    const SQL = await sqlEngine();
    const old = new SQL.Database();
    old.exec('PRAGMA page_size = 4096; CREATE TABLE placeholder (x); DROP TABLE placeholder');
    writeFileSync(path.join(dir, CACHE_FILE), old.export());
    old.close();
    const a = await CatalogStore.open({ dataDir: dir, persistDelayMs: 10 });
    a.apply({ tags: fixtureTags(), events: fixtureEvents() });
    const counts = a.reader.counts();
    expect(a.statements.value('PRAGMA page_size')).toBe(4096);
    await a.close();
    const b = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => b.close());
    expect(b.movedAside).toBeUndefined();
    expect(b.reader.counts()).toEqual(counts);
    expect(b.statements.value('PRAGMA page_size')).toBe(4096);
  });

  it('a batch is on disk when apply returns, without a close (the file and its WAL, copied elsewhere, hold it)', async () => {
    const dir = tmp();
    const a = await loaded(dir);
    cleanups.push(() => a.close());
    expect(a.persistedAt).not.toBeNull();
    const copy = tmp();
    for (const f of readdirSync(dir).filter((n) => n.startsWith(CACHE_FILE))) copyFileSync(path.join(dir, f), path.join(copy, f));
    const b = await CatalogStore.open({ dataDir: copy });
    cleanups.push(() => b.close());
    // Every fixture market, those nested in the fixture events included.
    const fixtureIds = new Set([...fixtureMarkets(), ...fixtureEvents().flatMap((e) => e.markets ?? [])].map((m) => m.id));
    expect(a.reader.counts().markets).toBe(fixtureIds.size);
    expect(b.reader.counts().markets).toBe(fixtureIds.size);
  });

  it('refuses a second open of the same file in this process, and leaves it in place', async () => {
    const dir = tmp();
    const a = await loaded(dir);
    cleanups.push(() => a.close());
    await expect(CatalogStore.open({ dataDir: dir })).rejects.toThrow('is already open in this process');
    expect(readdirSync(dir).some((f) => f.includes('.corrupt-'))).toBe(false);
  });

  it('opens a cache of the in-memory era (the whole database saved as a copy) in place, and keeps working', async () => {
    // What earlier builds wrote: the bytes of sql.js's in-memory database file (journal MEMORY).
    const mem = await loaded();
    const counts = mem.reader.counts();
    const page = listAll(mem);
    const bytes = mem.statements.db.export();
    await mem.close();
    const dir = tmp();
    writeFileSync(path.join(dir, CACHE_FILE), bytes);

    const a = await CatalogStore.open({ dataDir: dir });
    expect(a.onDisk).toBe(true);
    expect(a.movedAside).toBeUndefined();
    expect(a.statements.value('PRAGMA journal_mode')).toBe('wal');
    expect(a.reader.counts()).toEqual(counts);
    expect(listAll(a)).toEqual(page);
    a.apply({ markets: [{ ...fixtureMarkets()[0]!, question: 'Changed in place', updatedAt: new Date().toISOString() }] });
    await a.close();
    const b = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => b.close());
    expect(b.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(b.reader.getMarket(Number(fixtureMarkets()[0]!.id))?.question).toBe('Changed in place');
    expect(b.reader.counts()).toEqual(counts);
  });

  it('refuses a cache in use by another live process; takes over the lock of one that is gone', async () => {
    const dir = tmp();
    const lock = path.join(dir, `${CACHE_FILE}.lock`);
    writeFileSync(lock, String(process.ppid));
    await expect(CatalogStore.open({ dataDir: dir })).rejects.toThrow(`is in use by process ${process.ppid}`);
    expect(readdirSync(dir)).toEqual([`${CACHE_FILE}.lock`]);
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(lock, String(dead));
    const s = await CatalogStore.open({ dataDir: dir });
    expect(readFileSync(lock, 'utf8')).toBe(String(process.pid));
    await s.close();
    expect(readdirSync(dir)).toEqual([CACHE_FILE]);
  });

  it('moves a corrupt cache file aside and starts empty', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, CACHE_FILE), 'this is not a database '.repeat(500));
    const s = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => s.close());
    expect(s.movedAside).toMatch(/catalog\.sqlite\.corrupt-/);
    expect(s.reader.counts().markets).toBe(0);
    const files = readdirSync(dir);
    expect(files.some((f) => f.startsWith(`${CACHE_FILE}.corrupt-`))).toBe(true);
    // The fresh cache is a new file in its place, and works.
    s.apply({ tags: fixtureTags() });
    expect(s.reader.counts().tags).toBe(fixtureTags().length);
    expect(existsSync(path.join(dir, CACHE_FILE))).toBe(true);
  });

  it('moves aside a truncated database file', async () => {
    const dir = tmp();
    const a = await loaded(dir);
    await a.close();
    const file = path.join(dir, CACHE_FILE);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, 3000));
    const s = await CatalogStore.open({ dataDir: dir });
    cleanups.push(() => s.close());
    // Moved aside whole, beside the new cache.
    expect(s.movedAside).toMatch(/catalog\.sqlite\.corrupt-/);
    expect(readFileSync(path.resolve(dir, s.movedAside!)).equals(bytes.subarray(0, 3000))).toBe(true);
    expect(s.reader.counts().markets).toBe(0);
  });

  it('refuses a cache written by a newer schema with a clear message, and leaves it untouched', async () => {
    const dir = tmp();
    const a = await loaded(dir);
    await a.close();
    const SQL = await sqlEngine();
    const db = new SQL.Database(readFileSync(path.join(dir, CACHE_FILE)));
    db.exec('PRAGMA user_version = 999');
    writeFileSync(path.join(dir, CACHE_FILE), db.export());
    db.close();
    const before = readFileSync(path.join(dir, CACHE_FILE));
    await expect(CatalogStore.open({ dataDir: dir })).rejects.toThrow(
      /written by a newer marketdesk \(cache schema version 999; this build knows up to \d+\)\. It is left untouched/,
    );
    expect(readdirSync(dir)).toEqual([CACHE_FILE]);
    expect(readFileSync(path.join(dir, CACHE_FILE)).equals(before)).toBe(true);
  });
});

describe('CatalogStore pruning and removal', () => {
  it('drops closed markets past the horizon but keeps recent ones and closed markets of open events', async () => {
    const s = await loaded();
    cleanups.push(() => s.close());
    // Closed 2024 markets whose events are closed too.
    const old = readFixture<GammaMarket[]>('statground_2024/markets_2024_sample100.json');
    s.apply({ markets: old });
    const closedInOpen = fixtureEvents()
      .filter((e) => e.closed === false)
      .flatMap((e) => e.markets ?? [])
      .find((m) => m.closed === true)!;
    const closedTimes = old.map((m) => Date.parse(String(m.closedTime).replace(' ', 'T').replace(/\+00$/, 'Z')));
    const latest = Math.max(...closedTimes);
    // A horizon that reaches back before every one of them keeps them all.
    expect(s.prune(Math.min(...closedTimes) - 1).markets).toBe(0);
    const r = s.prune(latest + 1);
    const lone = old.filter((m) => (m.events ?? []).every((e) => e.closed === true));
    expect(r.markets).toBe(lone.length);
    for (const m of lone) expect(s.reader.getMarket(Number(m.id))).toBeUndefined();
    expect(s.reader.getMarket(Number(closedInOpen.id))).toMatchObject({ id: closedInOpen.id, closed: true });
    // Open markets are never pruned.
    for (const m of fixtureMarkets().slice(0, 50)) expect(s.reader.getMarket(Number(m.id))).toMatchObject({ id: m.id, slug: m.slug });
  });

  it('removes items and their links', async () => {
    const s = await loaded();
    cleanups.push(() => s.close());
    const e = fixtureEvents()[0]!;
    s.remove('events', [Number(e.id)]);
    expect(s.reader.getEvent(Number(e.id))).toBeUndefined();
    const m = s.reader.getMarket(Number(e.markets![0]!.id))!;
    expect(m.events?.some((ref) => ref.id === e.id)).toBe(false);
  });
});

describe('CatalogStore tag filter', () => {
  it('answers alike whether it walks the sort index (popular tag) or collects the tag (rare tag), before and after writes', async () => {
    const s = await CatalogStore.open();
    cleanups.push(() => s.close());
    const tag = (id: number) => ({ id: String(id), label: `T${id}`, slug: `t${id}` });
    const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + (d % 300))).toISOString();
    // 3,000 markets in 1,500 events: tag 1 on every event, tag 2 on every 50th.
    const events = Array.from({ length: 1500 }, (_, i) => ({
      id: String(i + 1),
      slug: `e${i + 1}`,
      title: `E${i + 1}`,
      updatedAt: day(0),
      tags: i % 50 === 0 ? [tag(1), tag(2)] : [tag(1)],
      markets: [0, 1].map((k) => ({
        id: String(10_000 + 2 * i + k),
        question: `Q${i}-${k}`,
        endDate: day(i * 7 + k),
        active: (i + k) % 3 !== 0,
        closed: false,
        volume: String((i * 37) % 1000),
        updatedAt: day(0),
      })),
    }));
    s.apply({ tags: [tag(1), tag(2)], events });
    const forms = new Set<string>();
    s.statements.trace = (sql) => {
      if (/FROM markets m WHERE.*market_tags/.test(sql)) forms.add(sql.includes('EXISTS (SELECT 1 FROM market_tags') ? 'walk' : 'collect');
    };
    const list = (raw: Record<string, string>) => {
      const p = parseParams(operations['markets.list'].params, raw);
      if (!p.ok) throw new Error(p.message);
      return s.reader.listMarkets(p.value).map((m) => m.id);
    };
    const whole = (raw: Record<string, string>) => {
      const out: string[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = list({ ...raw, limit: '100', offset: String(offset) });
        out.push(...page);
        if (page.length < 100) return out;
      }
    };
    const check = () => {
      for (const tagId of ['1', '2']) {
        for (const order of ['endDate', 'volume']) {
          for (const offset of ['0', '40', '2990']) {
            const q = { active: 'true', order, ascending: 'true', offset, limit: '20' };
            // The same page out of the whole (unfiltered by tag) listing, filtered by hand.
            const tagged = new Set(events.filter((e) => e.tags.some((t) => t.id === tagId)).flatMap((e) => e.markets.map((m) => m.id)));
            const expected = whole({ active: 'true', order, ascending: 'true' })
              .filter((id) => tagged.has(id))
              .slice(Number(offset), Number(offset) + 20);
            expect(list({ ...q, tag_id: tagId }), `tag ${tagId} ${order} offset ${offset}`).toEqual(expected);
          }
        }
      }
    };
    check();
    expect(forms).toEqual(new Set(['walk', 'collect']));
    // After a write the counts behind the choice are taken again: tag 2 on every event now.
    for (const e of events) {
      e.tags = [tag(1), tag(2)];
      e.updatedAt = day(1);
    }
    s.apply({ events });
    check();
    forms.clear();
    list({ tag_id: '2', active: 'true', order: 'endDate', ascending: 'true', limit: '20' });
    expect(forms).toEqual(new Set(['walk'])); // tag 2 was rare at first, collected
    expect(whole({ tag_id: '2' }).length).toBe(3000);
  });
});
