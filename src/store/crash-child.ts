/**
 * The child process of crash-safety.test.ts: writes numbered batches of markets into the cache
 * at `<dir>` and prints `committed <n>` after each COMMIT has returned, so the parent, which
 * kills it with SIGKILL at random points, knows what must be on disk. Into an empty cache the
 * batches run as a bulk load (indexes dropped, rebuilt at the end), so kills land there too.
 *
 *   node --import tsx src/store/crash-child.ts <dir> <first batch> <batches> <markets per batch>
 */
import { writeSync } from 'node:fs';
import { fixtureMarkets } from '../testing/fixtures.ts';
import { CatalogStore } from './catalog-store.ts';

const [dir, first, count, size] = [process.argv[2]!, Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5])];
const templates = fixtureMarkets();

const say = (line: string) => writeSync(1, `${line}\n`);

// A 1 MiB page cache: pages spill to disk in the middle of transactions, so kills land among file writes, not only between them.
const store = await CatalogStore.open({ dataDir: dir, cacheMiB: 1 });
say('open');
await store.bulkLoad(async () => {
  for (let n = first; n < first + count; n++) {
    // Batch n holds the markets with ids n * 10,000 + i: the parent counts them.
    const lo = n * 10_000;
    const markets = Array.from({ length: size }, (_, i) => {
      const t = templates[i % templates.length]!;
      return {
        ...t,
        id: String(lo + i),
        slug: `crash-${n}-${i}`,
        question: `${t.question} (${n}/${i})`,
        updatedAt: new Date().toISOString(),
      };
    });
    store.apply({ markets });
    say(`committed ${n}`);
    // A turn of the loop between batches, as the sync has.
    await new Promise((r) => setImmediate(r));
  }
});
say('indexed');
await store.close();
say('closed');
