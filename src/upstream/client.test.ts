/**
 * The client's two bounds (issue 12): failures spend `maxRetries`; a 429 with Retry-After is
 * the upstream pacing us and spends none, only the request's deadline bounds it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createSyntheticCatalog, startFakeUpstream, type FakeUpstream } from '../fake-upstream/index.ts';
import { DeadlineError, UpstreamClient, UpstreamError, type ClientOptions } from './client.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function world(opts: Partial<ClientOptions> = {}): Promise<{ fake: FakeUpstream; client: UpstreamClient }> {
  const fake = await startFakeUpstream({ catalog: createSyntheticCatalog({ markets: 20, seed: 1 }) });
  cleanups.push(() => fake.close());
  const client = new UpstreamClient({ urls: { gamma: fake.url, clob: fake.url, data: fake.url }, baseDelayMs: 1, maxDelayMs: 5, ...opts });
  return { fake, client };
}

const markets = (client: UpstreamClient, o: { deadlineMs?: number } = {}) =>
  client.request<unknown[]>('gamma', '/markets', { query: { limit: 2 }, ...o });

describe('UpstreamClient retries', () => {
  it('a 429 with Retry-After spends no retry; failures still do', async () => {
    const { fake, client } = await world({ maxRetries: 1 });
    fake.faults.push({ kind: '429', retryAfter: 0 }, 5);
    expect(await markets(client)).toHaveLength(2);
    expect(client.stats).toMatchObject({ throttled: 5, failures: 0 });
    expect(fake.requests.count((e) => e.path === '/markets')).toBe(6);

    fake.faults.push({ kind: '500' }, 2);
    await expect(markets(client)).rejects.toThrow(/failed after 2 attempts: 500/);
  });

  it("a 429 whose Retry-After reaches past the request's deadline fails at once with when to come back", async () => {
    const { fake, client } = await world();
    fake.faults.push({ kind: '429', retryAfter: 30 });
    const e = await markets(client, { deadlineMs: 1000 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(DeadlineError);
    expect(e).not.toBeInstanceOf(UpstreamError);
    expect((e as DeadlineError).retryAfterMs).toBe(30_000);
    expect(fake.requests.count((x) => x.path === '/markets')).toBe(1);
  });
});
