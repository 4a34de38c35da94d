/**
 * Clob reads queued behind a full outbound budget (issue 12): each has a deadline, after which
 * it answers 503 with Retry-After, or the cached answer marked stale; a request whose client
 * went away leaves the queue and is never sent; a read shared by identical callers is cancelled
 * only when all of them are gone. The scheduler runs on a FakeClock: its windows roll and its
 * deadlines pass only when a test says.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream } from '../fake-upstream/index.ts';
import { parseLimitsTable } from '../limits/table.ts';
import { FakeClock, settle } from '../testing/fake-clock.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { startService, type Service } from '../http/server.ts';
import { TradingForwarder } from './trading-handlers.ts';

const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
/** One GET /book per 10 s: the second read in a window queues. */
const TABLE = parseLimitsTable({ windows: [{ name: 'book', limit: 1, seconds: 10, routes: ['GET /book'] }] });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world() {
  const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 10, seed: 1 }) });
  cleanups.push(() => fake.close());
  const clock = new FakeClock();
  let skew = 0;
  const s = await startService({
    urls: { gamma: fake.url, clob: fake.url, data: fake.url },
    basePort: 0,
    clobPort: 0,
    now: () => Date.now() + skew,
    limits: { table: TABLE, inbound: false, scheduler: { now: clock.now, timers: clock.timers } },
  });
  cleanups.push(() => s.close());
  const book = (token: string, init?: RequestInit) => fetch(`${s.clobUrl}/book?token_id=${token}`, init);
  const sent = (token: string) => fake.requests.count((e) => e.path === '/book' && e.query['token_id'] === token);
  return { fake, s, clock, book, sent, later: (ms: number) => (skew += ms) };
}

/** User requests queued for the clob host. */
const queued = (s: Service) => s.scheduler.status().hosts.find((h) => h.host === 'clob')!.queued.user;
/** Waits on state (a safety-net timeout only: the test's own). */
const until = (fn: () => boolean) => expect.poll(fn, { interval: 5, timeout: 170_000 }).toBe(true);

describe('queued clob reads have a deadline', () => {
  it('answers 503 with Retry-After when the budget stays full past the deadline, and never sends it', async () => {
    const { s, clock, book, sent } = await world();
    expect((await book(TOKEN)).status).toBe(200);
    const waiting = book('42');
    await until(() => queued(s) === 1);
    // The user deadline is 5 s; the window frees 10 s after the first read.
    await clock.advance(5001);
    const r = await waiting;
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('5');
    expect(await r.json()).toEqual({ error: 'upstream rate limit: try again later' });
    expect(queued(s)).toBe(0);
    await clock.advance(10_000);
    expect(sent('42')).toBe(0);
  });

  it('answers the cached read, marked stale with its age, instead', async () => {
    const { s, clock, book, later } = await world();
    const good = await (await book(TOKEN)).json();
    later(3000); // past the 2 s lifetime of a book
    const waiting = book(TOKEN);
    await until(() => queued(s) === 1);
    await clock.advance(5001);
    const r = await waiting;
    expect(r.status).toBe(200);
    expect(r.headers.get('x-marketdesk-stale')).toBe('1');
    expect(r.headers.get('age')).toBe('3');
    expect(await r.json()).toEqual(good);
  });
});

describe('a client that goes away', () => {
  it('takes its queued read out of the queue; it is never sent', async () => {
    const { s, clock, book, sent } = await world();
    expect((await book(TOKEN)).status).toBe(200);
    const gone = new AbortController();
    const abandoned = book('77', { signal: gone.signal }).catch(() => 'aborted');
    await until(() => queued(s) === 1);
    gone.abort();
    expect(await abandoned).toBe('aborted');
    await until(() => queued(s) === 0);
    // The window rolls: the next read goes, the abandoned one does not.
    await clock.advance(10_001);
    expect((await book('78')).status).toBe(200);
    expect(sent('78')).toBe(1);
    expect(sent('77')).toBe(0);
  });

  it('cancels a shared read only when every caller has gone', async () => {
    const signals: AbortSignal[] = [];
    const client = {
      urls: { gamma: 'http://x', clob: 'http://x', data: 'http://x' },
      request: (_h: string, _p: string, o: { signal: AbortSignal }) => {
        signals.push(o.signal);
        return new Promise((_resolve, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason)));
      },
    } as unknown as UpstreamClient;
    const f = new TradingForwarder({ client, credentials: () => undefined });
    const [a, b] = [new AbortController(), new AbortController()];
    const params = { token_id: TOKEN };
    const first = f.read('book.get', params, { signal: a.signal }).catch((e: unknown) => e);
    const second = f.read('book.get', params, { signal: b.signal }).catch((e: unknown) => e);
    await settle();
    expect(signals).toHaveLength(1);
    a.abort();
    expect(await first).toMatchObject({ status: 499 });
    expect(signals[0]!.aborted).toBe(false);
    b.abort();
    expect(await second).toMatchObject({ status: 499 });
    expect(signals[0]!.aborted).toBe(true);
    // A later identical read starts afresh rather than joining the cancelled one.
    void f.read('book.get', params, {}).catch(() => {});
    await settle();
    expect(signals).toHaveLength(2);
    expect(signals[1]!.aborted).toBe(false);
  });
});
