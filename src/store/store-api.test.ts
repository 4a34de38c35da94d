/**
 * The store boundary (store-api.ts) holds: outside src/store, the service reaches the SQLite
 * implementation only through the composition root. Every other import from src/store is a
 * type-only import or one of the modules that are not the database (the watchlist's and screens' JSON files,
 * the temp-file helpers). A second backend then replaces CatalogStore in service.ts alone.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-root.ts';
import { CatalogStore } from './catalog-store.ts';
import type { Store } from './store-api.ts';

const SRC = path.join(PACKAGE_ROOT, 'src');
/** May construct the SQLite store: the composition root, and the tools that test or run it whole. */
const ROOTS = new Set(['service/service.ts', 'cli/cli.ts', 'cli/main.ts', 'cli/demo.ts']);
/** Modules of src/store that are not the database, which any part may use. */
const NEUTRAL = new Set(['store-api.ts', 'watchlist-file.ts', 'screens-file.ts', 'temp-files.ts', 'json-list-file.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    if (d.isDirectory()) return ['store', 'testing', 'fake-upstream'].includes(d.name) && dir === SRC ? [] : sources(p);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [p] : [];
  });
}

/** `import ... from '<spec>'` statements of a file, with whether each is type-only. */
function imports(file: string): { spec: string; typeOnly: boolean; line: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^import\s+(type\s+)?([\s\S]*?)\s+from\s+'([^']+)';/gm)].map((m) => {
    const names = m[2] ?? '';
    // `import { type A, type B }` is type-only too.
    const allTypes =
      /^\{[\s\S]*\}$/.test(names) &&
      names
        .slice(1, -1)
        .split(',')
        .every((n) => n.trim() === '' || /^type\s/.test(n.trim()));
    return { spec: m[3]!, typeOnly: !!m[1] || allTypes, line: m[0].replace(/\s+/g, ' ') };
  });
}

describe('the store boundary', () => {
  it('outside src/store, only the composition root imports the SQLite implementation', () => {
    const crossings: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file);
      if (ROOTS.has(rel)) continue;
      for (const imp of imports(file)) {
        const target = path.resolve(path.dirname(file), imp.spec);
        // src/store and its folders (engine/: sql.js's internals).
        if (!target.startsWith(path.join(SRC, 'store') + path.sep)) continue;
        if (imp.typeOnly || NEUTRAL.has(path.basename(target))) continue;
        crossings.push(`${rel}: ${imp.line}`);
      }
    }
    expect(crossings).toEqual([]);
  });

  it('finds crossings: the check reads real imports', () => {
    // The scan above must see the imports it judges, or it would pass on nothing.
    const all = sources(SRC).flatMap((f) => imports(f).map((i) => i.spec));
    expect(all).toContain('../store/store-api.ts');
    expect(imports(path.join(SRC, 'service/service.ts')).some((i) => i.spec === '../store/catalog-store.ts' && !i.typeOnly)).toBe(true);
  });

  it('CatalogStore is a Store: the service gets everything through the interface', async () => {
    const store: Store = await CatalogStore.open({});
    try {
      const version = store.catalogVersion;
      store.apply({ markets: [{ id: '7', question: 'Will it?', slug: 'will-it', outcomePrices: '["0.4","0.6"]' }] });
      expect(store.reader.getMarketBySlug('will-it')?.id).toBe('7');
      // One batch that changed something: one new version.
      expect(store.catalogVersion).toBe(version + 1);
      store.setMeta('k', 'v');
      expect(store.getMeta('k')).toBe('v');
      expect(store.side.orders.count('0xabc')).toBe(0);
      expect(store.series.listSeries({ limit: 10, offset: 0 } as never)).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
