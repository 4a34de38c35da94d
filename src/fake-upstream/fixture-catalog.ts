/**
 * A catalog over the real Gamma responses in the repo's fixtures/gamma. Files are read in a fixed
 * order and a market id keeps its first object, so which copy wins is predictable: the 2026
 * `/markets` dump beats the 2025 `/events` dump for the markets they share. (An event keeps its
 * most complete copy: a full `/events` item beats the partial one nested in a market.)
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../package-root.ts';
import type { GammaEvent, GammaMarket, GammaSeries, GammaTag } from '../contract/gamma.ts';
import { FakeCatalog, type CatalogOptions, type CatalogParts } from './catalog.ts';
import { modernizeParts } from './protocol-versions.ts';

/** The seed that picks which recorded markets load as v2 (fixtures/polymarket-2026/README.md). */
export const FIXTURE_VERSION_SEED = 2026;

/** The recorded Gamma responses shipped in the repo (fixtures/gamma; its README says what each file is). */
export const FIXTURES_DIR: string = join(PACKAGE_ROOT, 'fixtures', 'gamma');

async function readJson(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

async function listJson(dir: string, filter: (name: string) => boolean): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((n) => n.endsWith('.json') && filter(n)).sort();
  } catch {
    return [];
  }
}

/** The ordered file list, as parts; exported for tests that want to compare against the raw files. */
export async function readFixtureParts(dir: string): Promise<{ file: string; part: CatalogParts }[]> {
  const out: { file: string; part: CatalogParts }[] = [];
  const add = async (file: string, toPart: (data: unknown) => CatalogParts) => {
    out.push({ file, part: toPart(await readJson(join(dir, file))) });
  };
  const asArray = <T>(d: unknown): T[] => (Array.isArray(d) ? (d as T[]) : [d as T]);

  // Tag lists first so /tags starts with a real /tags page; tags seen only on events follow.
  for (const f of await listJson(dir, (n) => n.startsWith('tags_default_page_'))) {
    await add(f, (d) => ({ tags: asArray<GammaTag>(d) }));
  }
  const nt = join(dir, 'nautilus_trader');
  const nautilus = await listJson(nt, (n) => n !== 'search_response.json');
  if (nautilus.includes('gamma_tags.json')) await add(join('nautilus_trader', 'gamma_tags.json'), (d) => ({ tags: asArray<GammaTag>(d) }));
  await add('markets_active_2026-02.json', (d) => ({ markets: asArray<GammaMarket>(d) }));
  await add('events_active_2025-06.json', (d) => ({ events: asArray<GammaEvent>(d) }));
  for (const f of nautilus) {
    const file = join('nautilus_trader', f);
    if (f === 'gamma_event.json') await add(file, (d) => ({ events: asArray<GammaEvent>(d) }));
    else if (f.startsWith('gamma_market')) await add(file, (d) => ({ markets: asArray<GammaMarket>(d) }));
  }
  const sg = join(dir, 'statground_2024');
  for (const f of await listJson(sg, (n) => n.startsWith('markets_'))) {
    await add(join('statground_2024', f), (d) => ({ markets: asArray<GammaMarket>(d) }));
  }
  for (const f of await listJson(sg, (n) => n.startsWith('series_'))) {
    await add(join('statground_2024', f), (d) => ({ series: asArray<GammaSeries>(d) }));
  }
  return out;
}

export async function loadFixtureCatalog(dir: string, opts: CatalogOptions = {}): Promise<FakeCatalog> {
  const read = await readFixtureParts(dir);
  // The 2025 recordings made today's: a fixed third of the markets become v2 (protocol-versions.ts).
  const { parts, ids } = modernizeParts(
    read.map((p) => p.part),
    FIXTURE_VERSION_SEED,
  );
  const catalog = new FakeCatalog(parts, opts);
  catalog.protocolIds = ids;
  return catalog;
}
