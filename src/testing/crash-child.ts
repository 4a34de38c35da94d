/**
 * The child process of the kill tests (crash-harness.ts): one of the store's writes, which the
 * parent kills with SIGKILL at a random point. It prints a line at each point the parent needs:
 * `committed <n>` once batch n's COMMIT has returned (so it must survive the kill), and the start
 * and end of each phase (`vacuuming` ... `vacuumed`), so kills can be aimed inside it.
 *
 *   node --import tsx src/store/crash-child.ts <mode> <dir> [args]
 *
 *   sync <first> <batches> <size>  batches into a populated cache, as an incremental sync writes them; each also
 *                                  rewrites the previous batch's text (updates re-index the search documents)
 *   bulk <first> <batches> <size>  a bulk load into an empty cache (indexes dropped, rebuilt at the end: `indexing`)
 *   vacuum <batch>...              deletes those batches (`deleted`), then compacts the file (`vacuuming`, `vacuumed`)
 *   upgrade                        opens a cache an older build wrote (crash-harness.ts downgradeCache): the
 *                                  migrations, the search index and the sort indexes are built (`upgrading`, `upgraded`)
 *
 * Batch n holds the markets with ids n * 10,000 + i (i < size): the parent counts them.
 */
import { writeSync } from 'node:fs';
import { fixtureMarkets } from './fixtures.ts';
import { CatalogStore } from '../store/catalog-store.ts';
import { sqlEngine } from '../store/sqlite.ts';

const [mode, dir, ...args] = process.argv.slice(2) as [string, string, ...string[]];
const say = (line: string) => writeSync(1, `${line}\n`);
const templates = fixtureMarkets();

/** Batch n's markets (with `edit` appended to their text when it is written again). */
function batch(n: number, size: number, edit = '') {
  const lo = n * 10_000;
  return Array.from({ length: size }, (_, i) => {
    const t = templates[i % templates.length]!;
    return {
      ...t,
      id: String(lo + i),
      slug: `crash-${n}-${i}`,
      question: `${t.question} (${n}/${i})${edit}`,
      updatedAt: new Date().toISOString(),
    };
  });
}

// A 1 MiB page cache: pages spill to disk in the middle of transactions, so kills land among file writes, not only between them.
// Groups of 3 batches per COMMIT in bulk mode, so kills land between group commits, not only after the last.
const open = () => CatalogStore.open({ dataDir: dir, cacheMiB: 1, bulkGroup: 3 });

async function writeBatches(bulk: boolean): Promise<void> {
  const [first, count, size] = args.map(Number) as [number, number, number];
  const store = await open();
  if (bulk && store.reader.counts().markets > 0) throw new Error('bulk mode needs an empty cache');
  say('open');
  // A bulk load commits batches in groups (Statements.beginGroup): a batch must survive once a COMMIT
  // after it returned, so each COMMIT names every batch written before it.
  let written = first - 1;
  let said = first - 1;
  const writes = store.statements.writes;
  store.statements.writes = {
    committed() {
      writes?.committed();
      for (; said < written; said++) say(`committed ${said + 1}`);
    },
    failed: (e) => writes?.failed(e),
  };
  const write = async () => {
    for (let n = first; n < first + count; n++) {
      const again = !bulk && n > first ? batch(n - 1, size, ' (updated)') : [];
      // Batch n is in the COMMIT that apply makes (its own, or its group's).
      written = n;
      store.apply({ markets: [...batch(n, size), ...again] });
      // A turn of the loop between batches, as the sync has.
      await new Promise((r) => setImmediate(r));
    }
  };
  if (bulk)
    await store.bulkLoad(async () => {
      await write();
      // bulkLoad rebuilds the search index and the sort indexes when this returns.
      say('indexing');
    });
  else await write();
  if (bulk) say('indexed');
  say('closing');
  await store.close();
  say('closed');
}

async function vacuum(): Promise<void> {
  const store = await open();
  say('open');
  const ids = args.flatMap((n) =>
    store.statements.all('SELECT id FROM markets WHERE id / 10000 = ?', [Number(n)]).map((r) => Number(r[0])),
  );
  store.remove('markets', ids);
  say('deleted');
  say('vacuuming');
  const r = store.vacuum();
  say('vacuumed');
  say(`bytes ${r.bytesBefore} ${r.bytesAfter}`);
  say('closing');
  await store.close();
  say('closed');
}

async function upgrade(): Promise<void> {
  // The engine first, so the kill lands in the upgrade, not in loading the wasm.
  await sqlEngine();
  say('upgrading');
  const store = await open();
  say('upgraded');
  say('closing');
  await store.close();
  say('closed');
}

if (mode === 'sync' || mode === 'bulk') await writeBatches(mode === 'bulk');
else if (mode === 'vacuum') await vacuum();
else if (mode === 'upgrade') await upgrade();
else throw new Error(`crash-child: unknown mode ${mode}`);
