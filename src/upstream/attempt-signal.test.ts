import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { attemptSignal } from './attempt-signal.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let server: Server | undefined;
afterEach(async () => {
  const s = server;
  server = undefined;
  if (!s) return;
  s.closeAllConnections();
  await new Promise((r) => s.close(r));
});

/** A server that takes requests and never answers them. */
async function hangingServer(): Promise<string> {
  server = createServer(() => undefined);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** Collects garbage until the promise settles, as a sync's allocations would. */
async function underGc<T>(p: Promise<T>): Promise<T> {
  let settled = false;
  const settle = p.finally(() => {
    settled = true;
  });
  while (!settled) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
  return settle;
}

describe('attemptSignal', () => {
  it('times out a hung fetch although garbage is collected while it waits', async () => {
    const url = await hangingServer();
    const wire = attemptSignal(100);
    const err = await underGc(
      fetch(url, { signal: wire.signal }).then(
        () => null,
        (e: unknown) => e as Error,
      ),
    );
    wire.done();
    expect(err?.name).toBe('TimeoutError');
  });

  it("follows the caller's signal, with the caller's reason, and lets go of it when done", async () => {
    const url = await hangingServer();
    const outer = new AbortController();
    const wire = attemptSignal(60_000, outer.signal);
    const pending = fetch(url, { signal: wire.signal }).then(
      () => null,
      (e: unknown) => e,
    );
    outer.abort(new Error('stopped by the caller'));
    expect(((await pending) as Error).message).toBe('stopped by the caller');
    wire.done();

    const later = new AbortController();
    const finished = attemptSignal(60_000, later.signal);
    finished.done();
    later.abort();
    expect(finished.signal.aborted).toBe(false);
  });

  it('is aborted at once when the caller has already given up', () => {
    const outer = AbortSignal.abort(new Error('gone'));
    const wire = attemptSignal(60_000, outer);
    expect(wire.signal.aborted).toBe(true);
    expect((wire.signal.reason as Error).message).toBe('gone');
    wire.done();
  });
});
