/**
 * The catalog's memory end to end over HTTP (issue 16): a real service syncs a fake upstream,
 * the fake's catalog is changed through its admin route (`POST /_fake/mutate`), an
 * incremental sync runs, and `/changes` lists exactly the changes made, each kind with its
 * before and after; `/markets/{id}/history` has the snapshots; revisions keep before/after; a
 * restart (offline, same data dir) answers the same; bad parameters are 4xx. Expected values
 * come from the service's own answers before the changes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ChangeRecord, ChangesPage, MarketHistory, RevisionsPage } from '../contract/index.ts';
import { createSyntheticCatalog, MUTATE_PATH, startFakeUpstream, type FakeUpstream, type Mutation } from '../fake-upstream/index.ts';
import { tempDir } from '../testing/fixtures.ts';
import { startService, type Service } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Market {
  id: string;
  slug: string;
  question: string;
  outcomes: string;
  outcomePrices: string;
  liquidityNum?: number;
  description?: string;
  endDate?: string;
  events?: { id: string }[];
}
interface Event {
  id: string;
  slug: string;
  title: string;
  tags?: { id: string; slug: string }[];
}

async function get<T>(s: Service, p: string): Promise<{ status: number; body: T }> {
  const r = await fetch(s.baseUrl + p);
  return { status: r.status, body: (await r.json()) as T };
}

async function ok<T>(s: Service, p: string): Promise<T> {
  const r = await get<T>(s, p);
  expect(r.status, p).toBe(200);
  return r.body;
}

async function service(fake: FakeUpstream | undefined, dataDir: string): Promise<Service> {
  const web = tempDir();
  cleanups.push(web.cleanup);
  const s = await startService({
    urls: fake
      ? { gamma: fake.url, clob: fake.url, data: fake.url }
      : { gamma: 'http://127.0.0.1:9/', clob: 'http://127.0.0.1:9/', data: 'http://127.0.0.1:9/' },
    basePort: 0,
    clobPort: 0,
    webRoot: web.dir,
    dataDir,
    offline: fake === undefined,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
  });
  cleanups.push(() => s.close());
  return s;
}

async function mutateOver(fake: FakeUpstream, list: Mutation[]): Promise<void> {
  const r = await fetch(fake.url + MUTATE_PATH, { method: 'POST', body: JSON.stringify(list) });
  expect(r.status, await r.clone().text()).toBe(200);
}

const first = (m: Market) => Number((JSON.parse(m.outcomePrices) as string[])[0]);
const key = (c: ChangeRecord) => `${c.kind}:${c.market ? `m${c.market.id}` : `e${c.event!.id}`}`;

describe('history, revisions and the change feed', () => {
  it('records exactly the changes made upstream, keeps them over a restart, and refuses bad parameters', async () => {
    const data = tempDir();
    cleanups.push(data.cleanup);
    const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 300, seed: 5 }) });
    cleanups.push(() => fake.close());
    const s = await service(fake, data.dir);
    const loadFrom = Math.floor(Date.now() / 1000) * 1000;
    await s.sync!.syncNow('full');
    const loadTo = Date.now();
    // The first load is not news, but the feed watches from it on.
    const initial = await ok<ChangesPage>(s, '/changes?since=0');
    expect(initial.total).toBe(0);
    expect(initial.watchingSince).not.toBeNull();
    expect(Date.parse(initial.watchingSince!)).toBeGreaterThanOrEqual(loadFrom);
    expect(Date.parse(initial.watchingSince!)).toBeLessThanOrEqual(loadTo);

    // Six open markets in six different events, each with outcome prices and liquidity.
    const listed = await ok<Market[]>(s, '/markets?closed=false&limit=100');
    const picked: Market[] = [];
    const usedEvents = new Set<string>();
    for (const m of listed) {
      const ev = m.events?.[0]?.id;
      if (!ev || usedEvents.has(ev) || !m.outcomePrices || !(m.liquidityNum! > 0)) continue;
      usedEvents.add(ev);
      picked.push(m);
      if (picked.length === 6) break;
    }
    expect(picked).toHaveLength(6);
    const [pA, pB, pC, pD, pE, pF] = picked as [Market, Market, Market, Market, Market, Market];
    const evF = await ok<Event>(s, `/events/${pF.events![0]!.id}`);
    const tags = await ok<{ slug: string }[]>(s, '/tags?limit=1000');
    const extraTag = tags.find((t) => !evF.tags?.some((x) => x.slug === t.slug))!.slug;
    const newPrice = first(pA) > 0.5 ? Math.round((first(pA) - 0.2) * 100) / 100 : Math.round((first(pA) + 0.2) * 100) / 100;
    const newLiq = Math.round(pB.liquidityNum! * 3 + 5000);
    const newEnd = '2031-01-01T00:00:00Z';
    const since = new Date().toISOString();

    await mutateOver(fake, [
      { op: 'price', id: pA.id, price: newPrice },
      { op: 'liquidity', id: pB.id, liquidity: newLiq },
      { op: 'close', id: pC.id },
      { op: 'resolve', id: pD.id, winner: 0 },
      { op: 'rules', id: pE.id, description: 'Edited rules.' },
      { op: 'endDate', id: pE.id, endDate: newEnd },
      { op: 'tags', id: evF.id, tags: [...(evF.tags ?? []).map((t) => t.slug), extraTag] },
      { op: 'openMarket', id: '990001', eventId: pA.events![0]!.id, question: 'A new market?' },
      { op: 'openEvent', id: '990002', like: evF.id, marketId: '990003', title: 'A new event' },
    ]);
    await s.sync!.syncNow('incremental');

    const feed = await ok<ChangesPage>(s, `/changes?since=${encodeURIComponent(since)}&limit=1000`);
    // Later syncs keep the time the feed began watching.
    expect(feed.watchingSince).toBe(initial.watchingSince);
    expect(feed.changes.map(key).sort()).toEqual(
      [
        `price_move:m${pA.id}`,
        `liquidity_move:m${pB.id}`,
        `closed:m${pC.id}`,
        `closed:m${pD.id}`,
        `resolved:m${pD.id}`,
        `rule_edit:m${pE.id}`,
        `end_date:m${pE.id}`,
        `tags:e${evF.id}`,
        'new_market:m990001',
        'new_market:m990003',
        'new_event:e990002',
      ].sort(),
    );
    expect(feed.total).toBe(11);
    const byKey = new Map(feed.changes.map((c) => [key(c), c]));
    expect(byKey.get(`price_move:m${pA.id}`)).toMatchObject({
      market: { id: pA.id, slug: pA.slug, question: pA.question },
      before: first(pA),
      after: newPrice,
    });
    expect(byKey.get(`liquidity_move:m${pB.id}`)).toMatchObject({ before: Math.round(pB.liquidityNum!), after: newLiq });
    const outcomesD = JSON.parse(pD.outcomes) as string[];
    const pricesD = outcomesD.map((_, i) => (i ? '0' : '1'));
    expect(byKey.get(`resolved:m${pD.id}`)!.after).toEqual({ winner: outcomesD[0], outcomePrices: pricesD });
    expect(byKey.get(`rule_edit:m${pE.id}`)).toMatchObject({
      before: { description: pE.description },
      after: { description: 'Edited rules.' },
    });
    expect(byKey.get(`end_date:m${pE.id}`)).toMatchObject({ before: pE.endDate, after: newEnd });
    expect(byKey.get(`tags:e${evF.id}`)!.after).toEqual([...(evF.tags ?? []).map((t) => t.slug), extraTag]);
    expect(byKey.get('new_event:e990002')!.event).toMatchObject({ title: 'A new event' });
    expect(byKey.get('new_market:m990001')!.market).toMatchObject({ question: 'A new market?' });
    for (const c of feed.changes) expect(Date.parse(c.at)).toBeGreaterThanOrEqual(Math.floor(Date.parse(since) / 1000) * 1000);
    // Newest first, and the filters and paging answer subsets of the same list.
    const ats = feed.changes.map((c) => Date.parse(c.at));
    expect([...ats].sort((a, b) => b - a)).toEqual(ats);
    const some = await ok<ChangesPage>(s, `/changes?since=${encodeURIComponent(since)}&kind=resolved,closed`);
    expect(some.changes.map(key).sort()).toEqual([`closed:m${pC.id}`, `closed:m${pD.id}`, `resolved:m${pD.id}`]);
    const paged = [
      ...(await ok<ChangesPage>(s, `/changes?since=${encodeURIComponent(since)}&limit=5`)).changes,
      ...(await ok<ChangesPage>(s, `/changes?since=${encodeURIComponent(since)}&limit=5&offset=5`)).changes,
      ...(await ok<ChangesPage>(s, `/changes?since=${encodeURIComponent(since)}&limit=5&offset=10`)).changes,
    ];
    expect(paged).toEqual(feed.changes);

    const history = await ok<MarketHistory>(s, `/markets/${pA.id}/history`);
    expect(history.points.map((p) => p.price)).toEqual([first(pA), newPrice]);
    expect(history.points.at(-1)).toMatchObject({ lastTradePrice: newPrice });
    // A window after the last snapshot: that snapshot alone, as the value in force at `from`.
    const from = Math.floor(Date.now() / 1000) + 60;
    const later = await ok<MarketHistory>(s, `/markets/${pA.id}/history?from=${from}&to=2100-01-01`);
    expect(later.points).toEqual([history.points.at(-1)]);
    expect(later.points[0]!.t).toBeLessThan(from);

    const revE = await ok<RevisionsPage>(s, `/markets/${pE.id}/revisions`);
    expect(revE.revisions.map((r) => [r.field, r.before, r.after]).sort()).toEqual([
      ['description', pE.description, 'Edited rules.'],
      ['endDate', pE.endDate, newEnd],
    ]);
    const revF = await ok<RevisionsPage>(s, `/events/${evF.id}/revisions?limit=1`);
    expect(revF).toMatchObject({ id: evF.id, total: 1, revisions: [{ field: 'tags' }] });
    expect((await ok<RevisionsPage>(s, `/markets/${pA.id}/revisions`)).total).toBe(0);

    // Bad parameters: 4xx, and nothing else answers differently after them.
    const bad = [
      '/changes?since=yesterday',
      '/changes?kind=moved',
      '/changes?kind=',
      '/changes?limit=0',
      '/changes?limit=1001',
      '/changes?offset=-1',
      '/markets/abc/history',
      `/markets/${pA.id}/history?from=2026-13-40`,
      `/markets/${pA.id}/history?from=2026-02-01&to=2026-01-01`,
      `/markets/${pA.id}/revisions?limit=501`,
      '/events/x/revisions',
    ];
    for (const p of bad) expect((await get(s, p)).status, p).toBe(400);
    expect((await get(s, '/markets/123456789012/history')).status).toBe(404);
    expect((await get(s, '/events/123456789012/revisions')).status).toBe(404);

    // A restart, offline, on the same data dir: the same answers.
    const answers = async (svc: Service) =>
      Promise.all(
        [
          `/changes?since=${encodeURIComponent(since)}&limit=1000`,
          // Explicit times: the default window moves with the clock.
          `/markets/${pA.id}/history?from=${encodeURIComponent(since)}&to=2100-01-01`,
          `/markets/${pE.id}/revisions`,
          `/events/${evF.id}/revisions`,
        ].map((p) => ok(svc, p)),
      );
    const before = await answers(s);
    await s.close();
    const again = await service(undefined, data.dir);
    expect(await answers(again)).toEqual(before);
  });
});
