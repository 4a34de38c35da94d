/**
 * The watchlist operations over HTTP and through dispatch (IPC): add, remove, list, kept in
 * `<dataDir>/watchlist.json` across restarts, idempotent, bad input refused without a change,
 * the `watchlist` push event, and a cross-site write refused by the origin guard.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PushEvents, PushName, WatchItem } from '../contract/index.ts';
import { DEAD_UPSTREAM, fixtureEvents, fixtureMarkets, fixtureTags, tempDir } from '../testing/fixtures.ts';
import { WATCHLIST_FILE } from '../store/watchlist-file.ts';
import { startService, type Service } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const MARKETS = fixtureMarkets();
const EVENTS = fixtureEvents();

async function serve(dataDir?: string): Promise<Service> {
  const web = tempDir();
  cleanups.push(web.cleanup);
  const s = await startService({
    urls: DEAD_UPSTREAM,
    offline: true,
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
    persistDelayMs: 0,
    ...(dataDir !== undefined ? { dataDir } : {}),
  });
  cleanups.push(() => s.close());
  s.store.apply({ tags: fixtureTags(), events: EVENTS });
  s.store.apply({ markets: MARKETS });
  return s;
}

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

async function call(
  s: Service,
  method: string,
  p: string,
): Promise<{ status: number; body: { items?: WatchItem[] } & Record<string, unknown> }> {
  // A POST takes application/json only (the origin guard's rule against simple cross-site requests);
  // a write carries the local API token (src/http/write-guard.ts).
  const token: Record<string, string> = method === 'GET' ? {} : { 'x-marketdesk-token': s.apiToken.token };
  const headers = method === 'POST' ? { ...token, 'content-type': 'application/json' } : token;
  const r = await fetch(s.baseUrl + p, { method, headers });
  return { status: r.status, body: (await r.json()) as { items?: WatchItem[] } };
}

const ids = (items: WatchItem[] | undefined) => (items ?? []).map((i) => `${i.kind}:${i.id}`);

describe('watchlist over HTTP', () => {
  it('adds newest first, lists, removes; each change answers the whole list', async () => {
    const s = await serve();
    const [m1, m2] = [MARKETS[0]!.id, MARKETS[1]!.id];
    const e1 = EVENTS[0]!.id;
    expect((await call(s, 'GET', '/watchlist')).body).toEqual({ items: [] });
    expect(ids((await call(s, 'POST', `/watchlist?kind=market&id=${m1}`)).body.items)).toEqual([`market:${m1}`]);
    await call(s, 'POST', `/watchlist?kind=event&id=${e1}`);
    const added = await call(s, 'POST', `/watchlist?kind=market&id=${m2}`);
    expect(added.status).toBe(200);
    expect(ids(added.body.items)).toEqual([`market:${m2}`, `event:${e1}`, `market:${m1}`]);
    for (const i of added.body.items!) expect(Number.isNaN(Date.parse(i.addedAt))).toBe(false);
    expect((await call(s, 'GET', '/watchlist')).body).toEqual(added.body);
    const removed = await call(s, 'DELETE', `/watchlist/event/${e1}`);
    expect(ids(removed.body.items)).toEqual([`market:${m2}`, `market:${m1}`]);
  });

  it('is idempotent: adding twice keeps one entry and its time; removing a missing one changes nothing', async () => {
    const s = await serve();
    const m = MARKETS[2]!.id;
    const first = await call(s, 'POST', `/watchlist?kind=market&id=${m}`);
    const again = await call(s, 'POST', `/watchlist?kind=market&id=${m}`);
    expect(again.body).toEqual(first.body);
    await call(s, 'DELETE', `/watchlist/market/${m}`);
    const gone = await call(s, 'DELETE', `/watchlist/market/${m}`);
    expect(gone).toEqual({ status: 200, body: { items: [] } });
  });

  it('refuses bad input and unknown ids with 400/404, changing nothing', async () => {
    const s = await serve();
    await call(s, 'POST', `/watchlist?kind=market&id=${MARKETS[0]!.id}`);
    const before = (await call(s, 'GET', '/watchlist')).body;
    const cases: [string, string, number][] = [
      ['POST', '/watchlist?kind=tag&id=1', 400],
      ['POST', '/watchlist?kind=market&id=abc', 400],
      ['POST', '/watchlist?kind=market', 400],
      ['POST', '/watchlist?id=1', 400],
      ['POST', '/watchlist?kind=market&id=999999999', 404],
      ['POST', '/watchlist?kind=event&id=999999999', 404],
      ['DELETE', '/watchlist/tag/1', 400],
      ['DELETE', '/watchlist/market/x1', 400],
    ];
    for (const [method, p, status] of cases) {
      const r = await call(s, method, p);
      expect(r.status, `${method} ${p}`).toBe(status);
      expect(r.body['type'], `${method} ${p}`).toBe(status === 404 ? 'not found error' : 'bad request');
    }
    expect((await call(s, 'GET', '/watchlist')).body).toEqual(before);
  });

  it('refuses a POST that is not application/json (a simple cross-site form post)', async () => {
    const s = await serve();
    const r = await fetch(`${s.baseUrl}/watchlist?kind=market&id=${MARKETS[0]!.id}`, { method: 'POST' });
    expect(r.status).toBe(415);
    expect((await call(s, 'GET', '/watchlist')).body).toEqual({ items: [] });
  });

  it('refuses a cross-site POST (foreign Origin) and keeps the list', async () => {
    const s = await serve();
    const r = await fetch(`${s.baseUrl}/watchlist?kind=market&id=${MARKETS[0]!.id}`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json', 'x-marketdesk-token': s.apiToken.token },
    });
    expect(r.status).toBe(403);
    expect((await call(s, 'GET', '/watchlist')).body).toEqual({ items: [] });
  });
});

describe('watchlist through dispatch (IPC) and push', () => {
  it('answers the same as HTTP and pushes each change', async () => {
    const s = await serve();
    const pushed: { name: PushName; payload: unknown }[] = [];
    const off = s.push.subscribe((name, payload) => pushed.push({ name, payload }));
    cleanups.push(off);
    const m = MARKETS[3]!.id;
    const added = await s.dispatch('watchlist.add', { kind: 'market', id: m });
    expect(ids(added.items)).toEqual([`market:${m}`]);
    expect(await s.dispatch('watchlist.list', {})).toEqual((await call(s, 'GET', '/watchlist')).body);
    await s.dispatch('watchlist.add', { kind: 'market', id: m });
    await s.dispatch('watchlist.remove', { kind: 'market', id: m });
    const events = pushed.filter((p) => p.name === 'watchlist').map((p) => ids((p.payload as PushEvents['watchlist']).items));
    // The repeated add changed nothing, so it sent nothing.
    expect(events).toEqual([[`market:${m}`], []]);
    expect(s.push.snapshot().watchlist).toEqual({ items: [] });
    await expect(s.dispatch('watchlist.add', { kind: 'market', id: '999999999' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('watchlist persistence', () => {
  it('survives a restart with the same data dir (written atomically, no temp file left)', async () => {
    const d = dir();
    const a = await serve(d);
    const [m, e] = [MARKETS[4]!.id, EVENTS[1]!.id];
    await call(a, 'POST', `/watchlist?kind=market&id=${m}`);
    const saved = (await call(a, 'POST', `/watchlist?kind=event&id=${e}`)).body;
    await a.close();
    const names = (await import('node:fs')).readdirSync(d).filter((n) => n.startsWith(WATCHLIST_FILE));
    expect(names).toEqual([WATCHLIST_FILE]);
    expect(JSON.parse(readFileSync(path.join(d, WATCHLIST_FILE), 'utf8')).items).toEqual(saved.items);
    const b = await serve(d);
    expect((await call(b, 'GET', '/watchlist')).body).toEqual(saved);
    await call(b, 'DELETE', `/watchlist/market/${m}`);
    await b.close();
    const c = await serve(d);
    expect(ids((await call(c, 'GET', '/watchlist')).body.items)).toEqual([`event:${e}`]);
  });

  it('an unreadable file is moved aside, not lost, and the list starts empty', async () => {
    const d = dir();
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, WATCHLIST_FILE), '{not json');
    const s = await serve(d);
    expect((await call(s, 'GET', '/watchlist')).body).toEqual({ items: [] });
    const aside = (await import('node:fs')).readdirSync(d).filter((n) => n.startsWith(`${WATCHLIST_FILE}.unreadable-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(d, aside[0]!), 'utf8')).toBe('{not json');
  });

  it('without a data dir it keeps the list in memory and writes no file', async () => {
    const s = await serve();
    await call(s, 'POST', `/watchlist?kind=market&id=${MARKETS[0]!.id}`);
    expect(ids((await call(s, 'GET', '/watchlist')).body.items)).toHaveLength(1);
    expect(existsSync(path.join(process.cwd(), WATCHLIST_FILE))).toBe(false);
  });
});
