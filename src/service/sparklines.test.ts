/**
 * `GET /markets/sparklines` over HTTP (issue 16): after a full sync and an incremental one that
 * moved two markets' prices upstream, those two have series that end at the new price and hold
 * the old one before it, as their own `/markets/{id}/history` says; an unchanged market is left
 * out; bad ids are 400. Expected values come from the service's own answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MarketHistory, Sparklines } from '../contract/index.ts';
import { createSyntheticCatalog, MUTATE_PATH, startFakeUpstream } from '../fake-upstream/index.ts';
import { tempDir } from '../testing/fixtures.ts';
import { startService } from '../http/server.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

interface Market {
  id: string;
  outcomePrices?: string;
}

describe('markets.sparklines', () => {
  it('answers the moved markets from the local history, leaves the others out, and refuses bad ids', async () => {
    const data = tempDir();
    const web = tempDir();
    cleanups.push(data.cleanup, web.cleanup);
    const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 200, seed: 7 }) });
    cleanups.push(() => fake.close());
    const s = await startService({
      urls: { gamma: fake.url, clob: fake.url, data: fake.url },
      basePort: 0,
      clobPort: 0,
      webRoot: web.dir,
      dataDir: data.dir,
      client: { baseDelayMs: 1, maxDelayMs: 5, maxRetries: 1 },
    });
    cleanups.push(() => s.close());
    const get = async <T>(p: string) => {
      const r = await fetch(s.baseUrl + p);
      return { status: r.status, body: (await r.json()) as T };
    };
    await s.sync!.syncNow('full');
    const open = (await get<Market[]>('/markets?closed=false&limit=50')).body.filter((m) => m.outcomePrices);
    const [a, b, c] = open as [Market, Market, Market];
    const first = (m: Market) => Number((JSON.parse(m.outcomePrices!) as string[])[0]);
    const moved = (m: Market) => Math.round((first(m) > 0.5 ? first(m) - 0.25 : first(m) + 0.25) * 100) / 100;
    const r = await fetch(fake.url + MUTATE_PATH, {
      method: 'POST',
      body: JSON.stringify([
        { op: 'price', id: a.id, price: moved(a) },
        { op: 'price', id: b.id, price: moved(b) },
      ]),
    });
    expect(r.status).toBe(200);
    await s.sync!.syncNow('incremental');

    const ans = await get<Sparklines>(`/markets/sparklines?id=${a.id}&id=${b.id}&id=${c.id}&id=999999999`);
    expect(ans.status).toBe(200);
    expect(ans.body).toMatchObject({ days: 7, buckets: 42 });
    expect(Object.keys(ans.body.series).sort()).toEqual([a.id, b.id].sort());
    for (const m of [a, b]) {
      const series = ans.body.series[m.id]!;
      expect(series).toHaveLength(42);
      const hist = (await get<MarketHistory>(`/markets/${m.id}/history`)).body.points.map((p) => p.price);
      expect(hist).toEqual([first(m), moved(m)]);
      // Both snapshots fall in the last bucket (the sync just ran): it holds the newer price.
      expect(series.at(-1)).toBe(moved(m));
      expect(series.filter((v) => v !== null).length).toBeGreaterThanOrEqual(1);
    }

    const tooMany = Array.from({ length: 201 }, (_, i) => `id=${i + 1}`).join('&');
    for (const p of ['/markets/sparklines', '/markets/sparklines?id=abc', '/markets/sparklines?id=-1', `/markets/sparklines?${tooMany}`]) {
      expect((await get(p)).status, p).toBe(400);
    }
  });
});
