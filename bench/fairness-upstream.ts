/**
 * The fairness bench's upstream, in its own process so its work never delays the load
 * generator's clocks: the synthetic catalog the bench cache was synced from (same seed), and a
 * mutator changing about 200 markets a second, so every incremental sync has rows to write.
 * Usage: tsx bench/fairness-upstream.ts MARKETS
 */
import { createSyntheticCatalog, startFakeUpstream } from '../src/fake-upstream/index.ts';

const markets = Number(process.argv[2]);
const catalog = createSyntheticCatalog({ markets, seed: 1 });
const upstream = await startFakeUpstream({ catalog, limits: 'off' });
const ids = catalog.marketRecords().map((r) => r.obj.id);
let tick = 0;
const mutator = setInterval(() => {
  for (let i = 0; i < 200; i++) {
    const id = ids[(tick * 7919 + i * 104729) % ids.length]!;
    catalog.updateMarket(id, { volume24hr: (tick * 13 + i) % 100_000, volumeNum: 1_000_000 + tick + i });
  }
  tick++;
}, 1000);
console.log(`fairness upstream listening on ${upstream.url}`);
process.on('SIGTERM', () => {
  clearInterval(mutator);
  void upstream.close().then(() => process.exit(0));
});
