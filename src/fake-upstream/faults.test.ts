import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog } from './catalog.ts';
import { FaultScript, type FaultKind } from './faults.ts';
import { startFakeUpstream, type FakeUpstream } from './server.ts';

const catalog = createSyntheticCatalog({ markets: 300, seed: 5 });
let up: FakeUpstream | undefined;

async function start(): Promise<FakeUpstream> {
  up = await startFakeUpstream({ catalog });
  return up;
}

afterEach(async () => {
  await up?.close();
  up = undefined;
});

describe('FaultScript', () => {
  it('fires queued faults on matching requests, consuming them', () => {
    const f = new FaultScript();
    const req = (path: string, q = '') => ({ method: 'GET', path, query: new URLSearchParams(q) });
    f.push({ kind: '500', match: '/events' }, 2).push({ kind: '429', match: (r) => r.query.get('limit') === '7' });
    expect(f.pending).toBe(3);
    expect(f.take(req('/markets'))).toBeUndefined();
    expect(f.take(req('/eventsx'))).toBeUndefined(); // a prefix is a path prefix, not a string prefix
    expect(f.take(req('/events/keyset'))?.kind).toBe('500');
    expect(f.take(req('/markets', 'limit=7'))?.kind).toBe('429');
    expect(f.take(req('/events'))?.kind).toBe('500');
    expect(f.take(req('/events'))).toBeUndefined();
    expect(f.pending).toBe(0);
    expect(f.fired.map((x) => x.kind)).toEqual(['500', '429', '500']);
  });

  it('random mode is reproducible for a seed', () => {
    const run = (seed: number): (FaultKind | undefined)[] => {
      const f = new FaultScript().random({ seed, rate429: 0.2, rate500: 0.1, rateDrop: 0.05 });
      return Array.from({ length: 300 }, () => f.take({ method: 'GET', path: '/markets', query: new URLSearchParams() })?.kind);
    };
    const a = run(9);
    expect(run(9)).toEqual(a);
    expect(run(10)).not.toEqual(a);
    const n429 = a.filter((k) => k === '429').length;
    expect(n429).toBeGreaterThan(30);
    expect(n429).toBeLessThan(100);
    expect(a.filter((k) => k === undefined).length).toBeGreaterThan(150);
  });

  it('clear() drops queued and random faults', () => {
    const f = new FaultScript().push({ kind: '500' }, 5).random({ rate429: 1 });
    f.clear();
    expect(f.pending).toBe(0);
    expect(f.take({ method: 'GET', path: '/', query: new URLSearchParams() })).toBeUndefined();
  });
});

describe('faults over HTTP', () => {
  it('429 carries Retry-After and fires once', async () => {
    const s = await start();
    s.faults.push({ kind: '429', retryAfter: 3 });
    const r1 = await fetch(`${s.url}/markets?limit=1`);
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('3');
    expect(await r1.json()).toEqual({ type: 'too many requests', error: 'rate limit exceeded' });
    const r2 = await fetch(`${s.url}/markets?limit=1`);
    expect(r2.status).toBe(200);
    await r2.arrayBuffer();
    expect(s.requests.count((e) => e.status === 429)).toBe(1);
    expect(s.requests.entries.map((e) => e.fault)).toEqual(['429', undefined]);
  });

  it('500 uses Gamma’s internal-error body, `times` repeats it', async () => {
    const s = await start();
    s.faults.push({ kind: '500', match: '/events' }, 2);
    const statuses: number[] = [];
    for (const p of ['/markets', '/events', '/events/keyset', '/events']) {
      const r = await fetch(s.url + p);
      statuses.push(r.status);
      if (r.status === 500) expect(await r.json()).toEqual({ type: 'internal error', error: 'cannot get the information' });
      else await r.arrayBuffer();
    }
    expect(statuses).toEqual([200, 500, 500, 200]);
  });

  it('slow delays the answer but answers normally', async () => {
    const s = await start();
    s.faults.push({ kind: 'slow', ms: 120 });
    const r = await fetch(`${s.url}/markets?limit=3`);
    expect(await r.json()).toHaveLength(3);
    const entry = s.requests.entries[0]!;
    expect(entry.fault).toBe('slow');
    expect(entry.status).toBe(200);
    expect(entry.ms).toBeGreaterThanOrEqual(115);
  });

  it('drop breaks the response part-way through the body', async () => {
    const s = await start();
    s.faults.push({ kind: 'drop' });
    const broken = fetch(`${s.url}/markets?limit=100`).then((r) => r.text());
    await expect(broken).rejects.toThrow();
    expect(s.requests.entries[0]).toMatchObject({ fault: 'drop', status: 200 });
    const ok = await fetch(`${s.url}/markets?limit=100`);
    expect(await ok.json()).toHaveLength(100);
  });

  it('hang never answers, and close() still returns promptly', async () => {
    const s = await start();
    s.faults.push({ kind: 'hang', match: '/events' });
    const hung = fetch(`${s.url}/events`);
    const settled = hung.then(
      () => 'answered',
      () => 'failed',
    );
    await s.requests.waitFor((e) => e.fault === 'hang');
    expect(s.requests.entries[0]).toMatchObject({ path: '/events', status: 0 });
    const ok = await fetch(`${s.url}/markets?limit=1`);
    expect(ok.status).toBe(200);
    await ok.arrayBuffer();
    await s.close();
    expect(await settled).toBe('failed');
  });

  it('random faults show up in the request log', async () => {
    const s = await start();
    s.faults.random({ seed: 4, rate429: 0.3, rate500: 0.2, retryAfter: 0 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await fetch(`${s.url}/markets?limit=1`);
      statuses.push(r.status);
      await r.arrayBuffer();
    }
    expect(statuses.filter((x) => x === 429).length).toBe(s.requests.count((e) => e.status === 429));
    expect(statuses.filter((x) => x === 429).length).toBeGreaterThan(3);
    expect(statuses.filter((x) => x === 500).length).toBeGreaterThan(1);
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(10);
    expect(s.faults.fired).toHaveLength(statuses.filter((x) => x !== 200).length);
    s.faults.random(null);
    expect((await fetch(`${s.url}/markets?limit=1`)).status).toBe(200);
  });
});
