/**
 * The outbound scheduler with a FakeClock: budgets less the margin, all windows or none,
 * priorities, cancellation, concurrency per host, Retry-After holds and the circuit.
 */
import { describe, expect, it, vi } from 'vitest';
import { FakeClock, settle } from '../testing/fake-clock.ts';
import { DeadlineError, UpstreamError, type AttemptOutcome, type Priority, type UpstreamHost } from '../upstream/client.ts';
import { OutboundScheduler, type SchedulerOptions } from './scheduler.ts';
import { parseLimitsTable, type WindowDef } from './table.ts';

function setup(windows: WindowDef[], opts: Partial<SchedulerOptions> = {}) {
  const clock = new FakeClock();
  const table = parseLimitsTable({ windows, classes: {}, faces: { base: 'x', clob: 'x' }, hosts: { gamma: 'x', clob: 'x', data: 'x' } });
  // No deadlines unless a test sets them: these tests wait out whole windows.
  const noDeadline = { user: Infinity, background: Infinity };
  const s = new OutboundScheduler({ table, margin: 0, now: clock.now, timers: clock.timers, deadlineMs: noDeadline, ...opts });
  const order: string[] = [];
  const errors: string[] = [];
  /** Queues one request; it reports `outcome` as soon as it is let through unless `hold`. */
  const req = (
    name: string,
    route: string,
    o: { priority?: Priority; signal?: AbortSignal; host?: UpstreamHost; hold?: boolean; outcome?: AttemptOutcome } = {},
  ) => {
    let release: ((x: AttemptOutcome) => void) | undefined;
    const p = s
      .acquire(o.host ?? 'gamma', route.split(' ')[1]!, {
        group: route,
        ...(o.priority ? { priority: o.priority } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
      })
      .then(
        (r) => {
          order.push(name);
          release = r;
          if (!o.hold) r(o.outcome ?? { kind: 'ok' });
        },
        (e: unknown) => {
          errors.push(`${name}: ${(e as Error).message}`);
        },
      );
    return { p, release: (x: AttemptOutcome = { kind: 'ok' }) => release?.(x) };
  };
  return { s, clock, req, order, errors };
}

const w = (name: string, limit: number, routes: string[], seconds = 10): WindowDef => ({ name, limit, seconds, routes });

describe('OutboundScheduler budgets', () => {
  it('keeps the safety margin: 95 of a 100 window now, the rest as the window rolls', async () => {
    const { req, order, clock } = setup([w('a', 100, ['GET /a'])], { margin: 0.05 });
    for (let i = 0; i < 120; i++) req(`r${i}`, 'GET /a');
    await settle();
    expect(order).toHaveLength(95);
    await clock.advance(9_999);
    expect(order).toHaveLength(95);
    await clock.advance(2);
    expect(order).toHaveLength(120);
  });

  it("takes room in all of a request's windows or in none", async () => {
    const { s, req, order } = setup([w('a', 5, ['GET /a']), w('ab', 8, ['GET /a', 'GET /b'])]);
    for (let i = 0; i < 6; i++) req(`a${i}`, 'GET /a');
    await settle();
    expect(order).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
    // a5 waits on window a; it has taken nothing from ab, so three /b fit.
    for (let i = 0; i < 4; i++) req(`b${i}`, 'GET /b');
    await settle();
    expect(order.slice(5)).toEqual(['b0', 'b1', 'b2']);
    const ab = s.status().hosts[0]!.windows.find((x) => x.name === 'ab')!;
    expect(ab.used).toBe(8);
    expect(s.status().hosts[0]!.queued).toEqual({ user: 2, background: 0 });
  });
});

describe('priorities and cancellation', () => {
  it('a user request goes before queued background ones', async () => {
    const { req, order, clock } = setup([w('a', 2, ['GET /a'])]);
    req('fill1', 'GET /a');
    req('fill2', 'GET /a');
    req('bg1', 'GET /a', { priority: 'background' });
    req('bg2', 'GET /a', { priority: 'background' });
    req('user', 'GET /a', { priority: 'user' });
    await settle();
    expect(order).toEqual(['fill1', 'fill2']);
    await clock.advance(10_001);
    expect(order).toEqual(['fill1', 'fill2', 'user', 'bg1']);
    await clock.advance(10_001);
    expect(order.at(-1)).toBe('bg2');
  });

  it('background requests do not take room a waiting user request needs', async () => {
    const { req, order, clock } = setup([w('a', 2, ['GET /a']), w('shared', 4, ['GET /a', 'GET /b'])]);
    req('a1', 'GET /a');
    req('a2', 'GET /a');
    req('a3', 'GET /a'); // waits for window a; shared has 2 left
    for (let i = 0; i < 3; i++) req(`b${i}`, 'GET /b', { priority: 'background' });
    await settle();
    expect(order).toEqual(['a1', 'a2']);
    await clock.advance(10_001);
    expect(order).toEqual(['a1', 'a2', 'a3', 'b0', 'b1', 'b2']);
  });

  it('a cancelled queued request is dropped without using budget', async () => {
    const { s, req, order, errors, clock } = setup([w('a', 1, ['GET /a'])]);
    req('fill', 'GET /a');
    const ac = new AbortController();
    const gone = req('gone', 'GET /a', { signal: ac.signal });
    req('next', 'GET /a');
    await settle();
    ac.abort(new Error('user navigated away'));
    await gone.p;
    expect(errors).toEqual(['gone: user navigated away']);
    await clock.advance(10_001);
    expect(order).toEqual(['fill', 'next']);
    expect(s.status().hosts[0]!.windows[0]!.used).toBe(1);
    // Already aborted: refused at once.
    const late = new AbortController();
    late.abort(new Error('too late'));
    await req('late', 'GET /a', { signal: late.signal }).p;
    expect(errors.at(-1)).toBe('late: too late');
  });
});

describe('concurrency, holds, circuit', () => {
  it('bounds attempts on the wire per host', async () => {
    const { req, order } = setup([w('a', 100, ['GET /a'])], { concurrency: 2 });
    const g1 = req('g1', 'GET /a', { hold: true });
    req('g2', 'GET /a', { hold: true });
    req('g3', 'GET /a', { hold: true });
    req('c1', 'GET /a', { host: 'clob', hold: true });
    await settle();
    expect(order).toEqual(['g1', 'g2', 'c1']);
    g1.release();
    await settle();
    expect(order).toEqual(['g1', 'g2', 'c1', 'g3']);
  });

  it("holds a route for a 429's Retry-After", async () => {
    const { req, order, clock } = setup([w('a', 100, ['GET /a']), w('b', 100, ['GET /b'])]);
    req('t', 'GET /a', { outcome: { kind: 'throttled', retryAfterMs: 2000 } });
    await settle();
    req('a', 'GET /a');
    req('b', 'GET /b');
    await settle();
    expect(order).toEqual(['t', 'b']);
    await clock.advance(2001);
    expect(order).toEqual(['t', 'b', 'a']);
  });

  it('opens after repeated failures, fails fast, probes back', async () => {
    const probe = vi.fn(async (host: UpstreamHost) => {
      // The service's probe is an ordinary request through the scheduler.
      const r = await s.acquire(host, '/', { group: 'probe', priority: 'background' });
      r(probeResult);
    });
    let probeResult: AttemptOutcome = { kind: 'failed', status: null };
    const { s, req, errors, clock } = setup([w('a', 100, ['GET /a'])], { circuit: { failures: 3, openMs: 1000, maxOpenMs: 4000 }, probe });
    const changes: string[] = [];
    s.onOnlineChange((h, on) => changes.push(`${h}:${on}`));
    for (let i = 0; i < 3; i++) req(`f${i}`, 'GET /a', { outcome: { kind: 'failed', status: 503 } });
    await settle();
    expect(s.isOnline('gamma')).toBe(false);
    expect(s.status().hosts[0]).toMatchObject({ online: false, circuit: 'open', probeInS: 1 });
    await req('x', 'GET /a').p;
    expect(errors.at(-1)).toMatch(/^x: gamma upstream is offline/);
    // Other hosts are unaffected.
    expect(s.isOnline('clob')).toBe(true);

    await clock.advance(1001); // the probe fails: open again for twice as long
    expect(probe).toHaveBeenCalledTimes(1);
    expect(s.status().hosts[0]!.circuit).toBe('open');
    await clock.advance(1000);
    expect(probe).toHaveBeenCalledTimes(1);
    probeResult = { kind: 'rejected', status: 404 }; // any HTTP answer: the host is back
    await clock.advance(1001);
    expect(probe).toHaveBeenCalledTimes(2);
    expect(s.isOnline('gamma')).toBe(true);
    expect(changes).toEqual(['gamma:false', 'gamma:true']);
    await req('y', 'GET /a').p;
    expect(errors).toHaveLength(1);
  });

  it('a 429 or 4xx is not a failure; failures must be consecutive', async () => {
    const { s, req } = setup([w('a', 100, ['GET /a'])], { circuit: { failures: 3 } });
    for (const o of [
      { kind: 'failed', status: 500 },
      { kind: 'failed', status: null },
      { kind: 'throttled', retryAfterMs: null },
      { kind: 'failed', status: 502 },
      { kind: 'failed', status: 500 },
      { kind: 'rejected', status: 400 },
      { kind: 'failed', status: 500 },
    ] as AttemptOutcome[]) {
      await req('r', 'GET /a', { outcome: o }).p;
    }
    expect(s.isOnline('gamma')).toBe(true);
  });

  it('close() rejects what is queued', async () => {
    const { s, req, errors } = setup([w('a', 1, ['GET /a'])]);
    req('fill', 'GET /a');
    const q = req('queued', 'GET /a');
    await settle();
    s.close();
    await q.p;
    expect(errors).toEqual(['queued: gamma: the scheduler is closed']);
    await expect(s.acquire('gamma', '/a', {})).rejects.toBeInstanceOf(UpstreamError);
  });
});

describe('deadlines (issue 12)', () => {
  /** Acquires and records how it ended: sent, or the error it was rejected with. */
  const track = (s: OutboundScheduler, o: { priority?: Priority; deadlineMs?: number } = {}) => {
    const r: { sent: boolean; error?: unknown; release?: (x: AttemptOutcome) => void } = { sent: false };
    void s.acquire('gamma', '/a', { group: 'GET /a', ...o }).then(
      (release) => {
        r.sent = true;
        r.release = release;
      },
      (e: unknown) => {
        r.error = e;
      },
    );
    return r;
  };

  it('rejects a request still queued at its deadline, unsent, saying when the budget frees', async () => {
    const { s, clock } = setup([w('a', 1, ['GET /a'])]);
    const fill = track(s);
    const late = track(s, { deadlineMs: 3000 });
    const patient = track(s, { deadlineMs: 60_000 });
    await clock.advance(2999);
    expect([fill.sent, late.sent, late.error]).toEqual([true, false, undefined]);
    await clock.advance(2); // timers fire a hair late (scheduler.arm)
    expect(late.error).toBeInstanceOf(DeadlineError);
    // The window frees 10 s after `fill` went: 7 s after the deadline.
    expect((late.error as DeadlineError).retryAfterMs).toBe(6999);
    expect(s.status().hosts[0]!.queued.user).toBe(1);
    await clock.advance(7000);
    expect(late.sent).toBe(false);
    expect(patient.sent).toBe(true);
    expect(s.status().hosts[0]!.windows[0]!.used).toBe(1);
  });

  it('defaults by priority: user 5 s, background longer', async () => {
    const { s, clock } = setup([w('a', 1, ['GET /a'], 60)], { deadlineMs: {} });
    track(s);
    const user = track(s);
    const sync = track(s, { priority: 'background' });
    await clock.advance(5001);
    expect(user.error).toBeInstanceOf(DeadlineError);
    expect(sync.error).toBeUndefined();
    await clock.advance(55_000);
    expect(sync.sent).toBe(true);
  });

  it('a request waiting only for a free slot expires too', async () => {
    const { s, clock } = setup([w('a', 100, ['GET /a'])], { concurrency: 1 });
    const first = track(s);
    const second = track(s, { deadlineMs: 500 });
    await clock.advance(501);
    expect(first.sent).toBe(true);
    expect(second.error).toBeInstanceOf(DeadlineError);
    // Nothing says when a slot frees: a second is the hint.
    expect((second.error as DeadlineError).retryAfterMs).toBe(1000);
    first.release!({ kind: 'ok' });
    await settle();
    expect(second.sent).toBe(false);
    expect(s.status().hosts[0]).toMatchObject({ inFlight: 0, queued: { user: 0, background: 0 } });
  });
});
