/**
 * Alerts end to end over HTTP (issue 16): a real service syncs a fake upstream whose catalog is
 * changed between syncs (`POST /_fake/mutate`) and whose CLOB fills and cancels orders; every
 * kind fires exactly once per crossing, pushes `alert` then `alerts`, lands in `/alerts/fired`,
 * and a restart on the same data dir neither re-fires nor forgets. Writes without the token and
 * bad rules are refused and change nothing. Expected values come from the service's own answers.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Credentials } from '../auth/credentials.ts';
import type { AlertList, AlertRule, FiredAlert, FiredPage, PushEvents, PushName, Screen } from '../contract/index.ts';
import { createSyntheticCatalog, MUTATE_PATH, startFakeUpstream, type FakeUpstream, type Mutation } from '../fake-upstream/index.ts';
import { RULES_FILE } from '../alerts/rules-file.ts';
import { DEAD_UPSTREAM, tempDir } from '../testing/fixtures.ts';
import { startService, type Service } from '../http/server.ts';

const CREDS: Credentials = {
  apiKey: '3f0b6c2e-91d4-4a7e-b8c5-0d2e6f1a9b47',
  secret: 'wN2-kq8_Zx4Lr7Tb1Yc9Vd3Fe6Gh0Jm5Pa_Qs-Ut8Io=',
  passphrase: 'e4c1f0b7a9d25c6e8f3b1a0d9c7e5f2a4b6d8c0e1f3a5b7c9d2e4f6a8b0c1d3e',
  address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
};

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Market {
  id: string;
  question: string;
  slug: string;
  conditionId: string;
  outcomePrices?: string;
  events?: { id: string }[];
}

function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

async function service(fake: FakeUpstream | undefined, dataDir?: string): Promise<Service> {
  const s = await startService({
    urls: fake ? { gamma: fake.url, clob: fake.url, data: fake.url } : DEAD_UPSTREAM,
    offline: fake === undefined,
    basePort: 0,
    clobPort: 0,
    webRoot: dir(),
    credentials: CREDS,
    client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    // The market channel unreachable: these are the sync's firings, on the catalog's prices (the
    // fake's books are centred on them to half a cent). Firings on ticks: live-uses.test.ts.
    clobWsUrl: 'ws://127.0.0.1:9',
    ...(dataDir !== undefined ? { dataDir } : {}),
  });
  cleanups.push(() => s.close());
  return s;
}

async function call<T = unknown>(
  s: Service,
  method: string,
  p: string,
  body?: unknown,
  token = true,
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = method === 'GET' || !token ? {} : { 'x-marketdesk-token': s.apiToken.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(s.baseUrl + p, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: r.status, body: (await r.json()) as T };
}

async function ok<T>(s: Service, method: string, p: string, body?: unknown): Promise<T> {
  const r = await call<T>(s, method, p, body);
  expect(r.status, `${method} ${p}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

async function mutate(fake: FakeUpstream, list: Mutation[]): Promise<void> {
  const r = await fetch(fake.url + MUTATE_PATH, { method: 'POST', body: JSON.stringify(list) });
  expect(r.status, await r.clone().text()).toBe(200);
}

/** Records the service's push events; `until` resolves when a condition on them holds (checked on each event). */
function recorder(s: Service) {
  const seen: { name: PushName; payload: unknown }[] = [];
  const waiters: { test: () => boolean; go: () => void }[] = [];
  s.push.subscribe((name, payload) => {
    seen.push({ name, payload });
    for (const w of [...waiters]) if (w.test()) waiters.splice(waiters.indexOf(w), 1) && w.go();
  });
  const alerts = () => seen.filter((e) => e.name === 'alert').map((e) => e.payload as FiredAlert);
  return {
    seen,
    alerts,
    until(test: () => boolean): Promise<void> {
      return test() ? Promise.resolve() : new Promise((go) => waiters.push({ test, go }));
    },
  };
}

const price = (m: Market) => Number((JSON.parse(m.outcomePrices!) as string[])[0]);
const r2 = (n: number) => Math.round(n * 100) / 100;
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('alerts over HTTP', () => {
  it('fires every kind once per crossing, pushes and logs it, and does not re-fire after a restart', async () => {
    const data = dir();
    const fake = await startFakeUpstream({
      catalog: createSyntheticCatalog({ markets: 300, seed: 5 }),
      clob: { credentials: CREDS, generate: { count: 6 } },
    });
    cleanups.push(() => fake.close());
    const s = await service(fake, data);
    const push = recorder(s);
    await s.sync!.syncNow('full');
    await s.orders.refreshNow();

    // Five open markets priced 0.2..0.7, in five different events.
    const listed = await ok<Market[]>(s, 'GET', '/markets?closed=false&limit=100');
    const picked: Market[] = [];
    const usedEvents = new Set<string>();
    for (const m of listed) {
      const ev = m.events?.[0]?.id;
      if (!ev || usedEvents.has(ev) || !m.outcomePrices || !(price(m) >= 0.2 && price(m) <= 0.7)) continue;
      usedEvents.add(ev);
      picked.push(m);
      if (picked.length === 5) break;
    }
    expect(picked).toHaveLength(5);
    const [pA, pB, pC, pD, pE] = picked as [Market, Market, Market, Market, Market];
    const evE = pE.events![0]!.id;
    const level = r2(price(pA) + 0.1);

    await ok(s, 'POST', `/watchlist?kind=market&id=${pC.id}`, {});
    const screen = await ok<Screen>(s, 'POST', '/screens', { name: 'Moonshots', kind: 'markets', params: { md_q: 'moonshot' } });
    const create = (body: Record<string, unknown>) => ok<AlertRule>(s, 'POST', '/alerts', body);
    const cross = await create({ kind: 'price_cross', market: pA.id, level });
    expect(cross).toMatchObject({
      kind: 'price_cross',
      level,
      direction: 'either',
      market: { id: pA.id, slug: pA.slug, question: pA.question },
    });
    expect(cross.label).toBe(`${pA.question} crosses ${Number((level * 100).toFixed(1))}¢`);
    const move = await create({ kind: 'price_move', market: pB.id, points: 0.1, window_hours: 24, label: 'B jumps' });
    expect(move).toMatchObject({ label: 'B jumps', points: 0.1, windowHours: 24, lastFiredAt: null });
    const edits = await create({ kind: 'rule_edit' });
    const eventEdits = await create({ kind: 'rule_edit', event: evE });
    expect(eventEdits.event).toMatchObject({ id: evE });
    const soon = await create({ kind: 'ends_soon', market: pD.id, hours: 48 });
    const byScreen = await create({ kind: 'new_match', screen: screen.id });
    // The renderer's form sends the fields as the query.
    const byText = await ok<AlertRule>(s, 'POST', '/alerts?kind=new_match&q=zeppelin', {});
    const orders = fake.clob!.orders.slice(0, 2);
    const [m1] = await ok<Market[]>(s, 'GET', `/markets?condition_ids=${orders[0]!.market}`);
    const anyOrder = await create({ kind: 'order_done' });
    const orderOnM1 = await create({ kind: 'order_done', market: m1!.id });
    const rules = (await ok<AlertList>(s, 'GET', '/alerts')).rules;
    expect(rules.map((r) => r.id)).toEqual([cross, move, edits, eventEdits, soon, byScreen, byText, anyOrder, orderOnM1].map((r) => r.id));
    expect(push.seen.filter((e) => e.name === 'alerts')).toHaveLength(9);

    // One change for each catalog rule.
    await mutate(fake, [
      { op: 'price', id: pA.id, price: r2(level + 0.05) },
      { op: 'price', id: pB.id, price: r2(price(pB) + 0.15) },
      { op: 'rules', id: pC.id, description: 'Edited rules.' },
      { op: 'rules', kind: 'event', id: evE, description: 'Edited event rules.' },
      { op: 'endDate', id: pD.id, endDate: inHours(24) },
      { op: 'openMarket', id: '990001', eventId: pA.events![0]!.id, question: 'A moonshot by 2030?' },
      { op: 'openMarket', id: '990002', eventId: pB.events![0]!.id, question: 'Zeppelin flights return?' },
    ]);
    await s.sync!.syncNow('incremental');
    const first = push.alerts();
    const fired = (rule: AlertRule) => first.filter((f) => f.ruleId === rule.id);
    expect(first).toHaveLength(7);
    expect(fired(cross)).toEqual([
      expect.objectContaining({
        kind: 'price_cross',
        market: { id: pA.id, slug: pA.slug, question: pA.question },
        before: price(pA),
        after: r2(level + 0.05),
      }),
    ]);
    expect(fired(move)[0]).toMatchObject({ before: price(pB), after: r2(price(pB) + 0.15) });
    expect(fired(edits)[0]).toMatchObject({ market: { id: pC.id }, after: { description: 'Edited rules.' } });
    expect(fired(eventEdits)[0]).toMatchObject({ event: { id: evE }, after: { description: 'Edited event rules.' } });
    expect(fired(soon)[0]).toMatchObject({ market: { id: pD.id } });
    expect(fired(byScreen)[0]).toMatchObject({ market: { id: '990001', question: 'A moonshot by 2030?' } });
    expect(fired(byText)[0]).toMatchObject({ market: { id: '990002', question: 'Zeppelin flights return?' } });
    // Each firing is pushed, then the rules with their new lastFiredAt.
    const last = push.seen.at(-1)!;
    expect(last.name).toBe('alerts');
    const afterFiring = (last.payload as PushEvents['alerts']).rules;
    expect(afterFiring.find((r) => r.id === cross.id)!.lastFiredAt).toBe(fired(cross)[0]!.at);
    const log = await ok<FiredPage>(s, 'GET', '/alerts/fired');
    expect(log.total).toBe(7);
    expect(log.fired.map((f) => f.id).sort()).toEqual(first.map((f) => f.id).sort());
    expect((await ok<FiredPage>(s, 'GET', '/alerts/fired?limit=2&offset=1')).fired).toEqual(log.fired.slice(1, 3));

    // No change of side or window: nothing; back below the level fires again; the end date moved out re-arms.
    await mutate(fake, [
      { op: 'price', id: pA.id, price: r2(level + 0.1) },
      { op: 'price', id: pB.id, price: r2(price(pB) + 0.16) },
    ]);
    await s.sync!.syncNow('incremental');
    expect(push.alerts()).toHaveLength(7);
    await mutate(fake, [
      { op: 'price', id: pA.id, price: r2(level - 0.05) },
      { op: 'endDate', id: pD.id, endDate: inHours(240) },
    ]);
    await s.sync!.syncNow('incremental');
    expect(
      push
        .alerts()
        .slice(7)
        .map((f) => f.ruleId),
    ).toEqual([cross.id]);
    await mutate(fake, [{ op: 'endDate', id: pD.id, endDate: inHours(12) }]);
    await s.sync!.syncNow('incremental');
    expect(
      push
        .alerts()
        .slice(8)
        .map((f) => f.ruleId),
    ).toEqual([soon.id]);

    // Orders: one fills, one is cancelled; the upstream says which.
    const [o1, o2] = orders as [(typeof orders)[0], (typeof orders)[0]];
    const [m2] = await ok<Market[]>(s, 'GET', `/markets?condition_ids=${o2.market}`);
    fake.clob!.fill(o1.id);
    fake.clob!.cancel(o2.id);
    const expected = 2 + 1 + (m2!.id === m1!.id ? 1 : 0);
    await s.orders.refreshNow();
    await push.until(() => push.alerts().length === 9 + expected);
    const done = push.alerts().slice(9);
    expect(done.filter((f) => f.ruleId === anyOrder.id).map((f) => f.order)).toEqual([
      { id: o1.id, outcome: o1.outcome, side: o1.side, status: 'filled' },
      { id: o2.id, outcome: o2.outcome, side: o2.side, status: 'cancelled' },
    ]);
    expect(done.filter((f) => f.ruleId === orderOnM1.id).every((f) => f.market?.id === m1!.id)).toBe(true);
    const before = await ok<FiredPage>(s, 'GET', '/alerts/fired?limit=1000');
    const rulesBefore = await ok<AlertList>(s, 'GET', '/alerts');
    await s.close();

    // A restart on the same data dir: the same rules and log; the same catalog and orders fire nothing.
    const again = await service(fake, data);
    const push2 = recorder(again);
    expect(await ok<AlertList>(again, 'GET', '/alerts')).toEqual(rulesBefore);
    expect(await ok<FiredPage>(again, 'GET', '/alerts/fired?limit=1000')).toEqual(before);
    await again.sync!.syncNow('incremental');
    // One more order fills: only it fires (the two already reported are not reported again).
    const o3 = fake.clob!.orders[0]!;
    fake.clob!.fill(o3.id);
    await again.orders.refreshNow();
    await push2.until(() => push2.alerts().some((f) => f.ruleId === anyOrder.id));
    expect(push2.alerts().map((f) => f.order?.id)).toEqual(push2.alerts().map(() => o3.id));
    expect((await ok<FiredPage>(again, 'GET', '/alerts/fired')).total).toBe(before.total + push2.alerts().length);
  });

  it('refuses writes without the token and bad rules, changing nothing', async () => {
    const data = dir();
    const s = await service(undefined, data);
    s.store.apply({
      markets: [{ id: '7', question: 'Will it?', slug: 'will-it', outcomePrices: '["0.4","0.6"]' }],
      events: [{ id: '70', title: 'An event', slug: 'an-event' }],
    });
    const good = { kind: 'price_cross', market: '7', level: 0.5 };
    expect((await call(s, 'POST', '/alerts', good, false)).status).toBe(401);
    const cases: [unknown, number, string][] = [
      [{ market: '7', level: 0.5 }, 400, 'kind is required'],
      [{ kind: 'price_cross', market: '7' }, 400, 'level is required for price_cross'],
      [{ kind: 'price_move', market: '7', points: 0.05 }, 400, 'window_hours is required for price_move'],
      [{ kind: 'ends_soon', market: '7' }, 400, 'hours is required for ends_soon'],
      [{ kind: 'new_match' }, 400, 'screen or q is required for new_match'],
      [{ kind: 'new_match', q: 'x', screen: 'abc' }, 400, 'give screen or q, not both'],
      [{ kind: 'rule_edit', market: '7', level: 0.5 }, 400, 'level does not apply to rule_edit'],
      [{ kind: 'rule_edit', market: '7', event: '70' }, 400, 'give market or event, not both'],
      [{ kind: 'price_cross', market: '7', level: 2 }, 400, 'level'],
      [{ kind: 'price_cross', market: 'abc', level: 0.5 }, 400, 'market is invalid'],
      [{ kind: 'nope' }, 400, 'kind'],
      ['[1]', 400, 'JSON object'],
      [{ kind: 'price_cross', market: '8', level: 0.5 }, 404, 'id not found'],
      [{ kind: 'ends_soon', event: '71', hours: 3 }, 404, 'id not found'],
      [{ kind: 'new_match', screen: 'abc' }, 404, 'screen not found'],
    ];
    for (const [body, status, message] of cases) {
      const r = await call<{ type: string; error: string }>(s, 'POST', '/alerts', typeof body === 'string' ? JSON.parse(body) : body);
      expect([r.status, r.body.error], JSON.stringify(body)).toEqual([status, expect.stringContaining(message)]);
    }
    expect(await ok<AlertList>(s, 'GET', '/alerts')).toEqual({ rules: [] });
    const rule = await ok<AlertRule>(s, 'POST', '/alerts', { kind: 'ends_soon', event: '70', hours: 6 });
    expect(rule).toMatchObject({ event: { id: '70', slug: 'an-event', title: 'An event' }, label: 'An event ends within 6 h' });
    expect((await call(s, 'DELETE', `/alerts/${rule.id}`, undefined, false)).status).toBe(401);
    expect((await call(s, 'DELETE', '/alerts/nope')).status).toBe(404);
    expect((await ok<AlertList>(s, 'GET', '/alerts')).rules).toEqual([rule]);
    expect(await ok<AlertList>(s, 'DELETE', `/alerts/${rule.id}`)).toEqual({ rules: [] });
    await s.close();
    expect(existsSync(path.join(data, RULES_FILE))).toBe(true);
  });

  it('caps the number of rules with a clear 400', async () => {
    const s = await service(undefined);
    s.store.apply({ markets: [{ id: '7', question: 'Will it?', slug: 'will-it', outcomePrices: '["0.4","0.6"]' }] });
    for (let i = 0; i < 5000; i++) await s.dispatch('alerts.create', { kind: 'order_done' });
    await expect(s.dispatch('alerts.create', { kind: 'order_done' })).rejects.toMatchObject({
      status: 400,
      body: { error: 'at most 5000 alert rules are kept' },
    });
    expect((await s.dispatch('alerts.list', {})).rules).toHaveLength(5000);
  });
});
