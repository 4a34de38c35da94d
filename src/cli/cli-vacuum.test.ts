/**
 * `marketdesk vacuum` as users run it (the built CLI): it compacts the cache in place and says by
 * how much, and it is refused, changing nothing, while a serve has the cache open.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CACHE_FILE, CatalogStore } from '../store/catalog-store.ts';
import { cleanupAfterEach, runCli } from '../testing/cli-run.ts';
import { fixtureMarkets, tempDir } from '../testing/fixtures.ts';

const cleanup = cleanupAfterEach();

function tmp(): string {
  const t = tempDir();
  cleanup(t.cleanup);
  return t.dir;
}

const cli = (args: string[]) => runCli(args, { cleanup, env: { XDG_CONFIG_HOME: tmp() } });

/** A cache of 3,000 markets of which 2,400 were then removed: mostly free pages. */
async function cacheWithHoles(dir: string): Promise<string[]> {
  const t = fixtureMarkets();
  const store = await CatalogStore.open({ dataDir: dir });
  const ids = Array.from({ length: 3000 }, (_, i) => 100_000 + i);
  store.apply({ markets: ids.map((id, i) => ({ ...t[i % t.length]!, id: String(id), slug: `v-${id}` })) });
  store.remove('markets', ids.slice(600));
  const kept = store.statements.all('SELECT id, slug, question FROM markets ORDER BY id').map((r) => r.join('|'));
  await store.close();
  return kept;
}

describe('marketdesk vacuum', () => {
  it('compacts the cache in place, reports bytes before and after, and keeps every row', async () => {
    const dir = tmp();
    const file = path.join(dir, CACHE_FILE);
    const kept = await cacheWithHoles(dir);
    const before = statSync(file).size;
    const run = cli(['vacuum', '--data-dir', dir]);
    const { code } = await run.exited;
    expect(code, run.stderr()).toBe(0);
    const m = /vacuumed \S+: (\d+) -> (\d+) bytes/.exec(run.stdout());
    expect(m, run.stdout()).not.toBeNull();
    expect(Number(m![1])).toBe(before);
    expect(Number(m![2])).toBe(statSync(file).size);
    expect(statSync(file).size).toBeLessThan(before / 2);
    expect(readdirSync(dir)).toEqual([CACHE_FILE]);
    const store = await CatalogStore.open({ dataDir: dir });
    cleanup(() => store.close());
    expect(store.statements.value('PRAGMA integrity_check')).toBe('ok');
    expect(store.statements.all('SELECT id, slug, question FROM markets ORDER BY id').map((r) => r.join('|'))).toEqual(kept);
  });

  it('is refused while a serve holds the cache, and the file is left as it was', async () => {
    const dir = tmp();
    const file = path.join(dir, CACHE_FILE);
    await cacheWithHoles(dir);
    const serve = cli(['serve', '--offline', '--data-dir', dir, '--base-port', '0', '--clob-port', '0']);
    await serve.line(/base: http/);
    const size = statSync(file).size;
    const run = cli(['vacuum', '--data-dir', dir]);
    const { code } = await run.exited;
    expect(code).toBe(1);
    expect(run.stderr()).toMatch(
      new RegExp(`^marketdesk: vacuum refused: the cache \\S+ is in use by process ${serve.child.pid} \\(another marketdesk serve`),
    );
    expect(statSync(file).size).toBe(size);
    serve.child.kill('SIGTERM');
    expect((await serve.exited).code).toBe(0);
  });

  it('says so when there is no cache, and creates none', async () => {
    const dir = tmp();
    const run = cli(['vacuum', '--data-dir', dir]);
    expect((await run.exited).code).toBe(1);
    expect(run.stderr()).toMatch(/there is no cache at \S+catalog\.sqlite: nothing to vacuum/);
    expect(readdirSync(dir)).toEqual([]);
  });
});
