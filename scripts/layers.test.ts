/**
 * The layers (scripts/layers.mjs) are lint rules: a wrong-way import fails `npm run lint` with
 * a message naming its rule. Each case writes one probe file where a product file would stand,
 * lints it with the project's own biome.jsonc, and removes it. The built CLI's static import
 * graph is checked too: the fake upstream may only be reached by a dynamic import.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const biome = path.join(root, 'node_modules/.bin/biome');

interface Probe {
  /** Where the probe file stands (a product folder). */
  at: string;
  /** The import it makes. */
  from: string;
  /** The rule that must refuse it; undefined: the import is allowed. */
  rule: string | undefined;
}

const PROBES: Probe[] = [
  // Each wrong-way import the code review found, and its kin.
  { at: 'renderer/src/components/probe.tsx', from: '../../../main/settings.ts', rule: 'renderer parts' },
  { at: 'renderer/src/probe.ts', from: '../../main/preload/index.ts', rule: 'renderer' },
  { at: 'renderer/src/probe.ts', from: '../../src/http/origin-guard.ts', rule: 'renderer' },
  { at: 'renderer/src/components/probe.tsx', from: '../views/Orders.tsx', rule: 'renderer parts' },
  { at: 'renderer/src/probe.ts', from: 'node:fs', rule: 'renderer' },
  { at: 'src/http/probe.ts', from: '../cli/main.ts', rule: 'http' },
  { at: 'src/service/probe.ts', from: '../http/face.ts', rule: 'service' },
  { at: 'src/upstream/probe.ts', from: '../store/leaderboard-store.ts', rule: 'upstream' },
  { at: 'src/store/probe.ts', from: '../upstream/client.ts', rule: 'store' },
  { at: 'src/store/engine/probe.ts', from: '../../sync/catalog-sync.ts', rule: 'store' },
  { at: 'src/icons/probe.ts', from: '../service/dispatch.ts', rule: 'sync' },
  { at: 'src/limits/probe.ts', from: '../store/catalog-store.ts', rule: 'limits' },
  { at: 'src/auth/probe.ts', from: '../upstream/client.ts', rule: 'auth' },
  { at: 'src/live/probe.ts', from: '../store/catalog-store.ts', rule: 'live' },
  { at: 'src/live/probe.ts', from: '../sync/catalog-sync.ts', rule: 'live' },
  { at: 'src/upstream/probe.ts', from: '../live/index.ts', rule: 'upstream' },
  { at: 'src/store/probe.ts', from: '../live/index.ts', rule: 'store' },
  { at: 'src/contract/probe.ts', from: '../store/schema.ts', rule: 'contract' },
  { at: 'src/contract/probe.ts', from: 'node:fs', rule: 'contract' },
  { at: 'src/probe.ts', from: './store/catalog-store.ts', rule: 'ground' },
  { at: 'src/store/probe.ts', from: '../testing/fixtures.ts', rule: 'beside' },
  { at: 'src/service/probe.ts', from: '../fake-upstream/index.ts', rule: 'beside' },
  { at: 'src/http/probe.ts', from: '../testing/fixtures.ts', rule: 'beside' },
  { at: 'main/probe.ts', from: '../src/testing/fixtures.ts', rule: 'beside' },
  { at: 'src/service/probe.ts', from: 'electron', rule: 'electron' },
  { at: 'main/preload/probe.ts', from: '../../src/service/dispatch.ts', rule: 'preload' },
  { at: 'main/probe.ts', from: '../renderer/src/api.ts', rule: 'main' },
  // What the layers allow, so a rule that refused everything would fail here.
  { at: 'src/http/probe.ts', from: '../service/dispatch.ts', rule: undefined },
  { at: 'src/sync/probe.ts', from: '../store/catalog-store.ts', rule: undefined },
  { at: 'src/upstream/probe.ts', from: '../auth/l2.ts', rule: undefined },
  { at: 'src/live/probe.ts', from: '../upstream/client.ts', rule: undefined },
  { at: 'src/alerts/probe.ts', from: '../live/index.ts', rule: undefined },
  { at: 'src/http/probe.ts', from: '../live/index.ts', rule: undefined },
  { at: 'src/store/engine/probe.ts', from: '../../contract/index.ts', rule: undefined },
  { at: 'renderer/src/probe.ts', from: '../../src/contract/routes.ts', rule: undefined },
  { at: 'renderer/src/views/probe.tsx', from: '../components/Icon.tsx', rule: undefined },
  { at: 'main/probe.ts', from: 'electron', rule: undefined },
  { at: 'main/probe.ts', from: '../src/http/server.ts', rule: undefined },
  { at: 'src/cli/probe.ts', from: '../fake-upstream/index.ts', rule: undefined },
  { at: 'src/store/probe.test.ts', from: '../testing/fixtures.ts', rule: undefined },
];

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string };
}

const written: string[] = [];
afterAll(() => {
  for (const f of written) rmSync(f, { force: true });
});

describe('layer rules', () => {
  it('refuse every wrong-way import with a message naming the rule, and allow the right ones', () => {
    // One probe file per case (a numbered name beside where a product file would stand), one biome run.
    const files = PROBES.map((p, i) => {
      const rel = p.at.replace(/probe(\.test)?\.(tsx?)$/, `layer-probe-${process.pid}-${i}$1.$2`);
      const file = path.join(root, rel);
      writeFileSync(file, `import * as probe from '${p.from}';\nexport const used = probe;\n`);
      written.push(file);
      return rel;
    });
    let out: string;
    try {
      out = execFileSync(biome, ['lint', '--reporter=json', '--max-diagnostics=none', ...files], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    const diagnostics = (JSON.parse(out) as { diagnostics: Diagnostic[] }).diagnostics.filter(
      (d) => d.category === 'lint/style/noRestrictedImports',
    );
    const refused = (rel: string) =>
      diagnostics.filter((d) => d.location.path === rel).map((d) => /^layer rule "([^"]+)"/.exec(d.message)?.[1] ?? d.message);
    const got = PROBES.map((p, i) => ({ at: p.at, from: p.from, rule: refused(files[i]!)[0] }));
    expect(got).toEqual(PROBES.map((p) => ({ at: p.at, from: p.from, rule: p.rule })));
  });

  it('biome.jsonc and docs/architecture.md hold what scripts/layers.mjs generates', () => {
    const run = () =>
      execFileSync(process.execPath, [path.join(root, 'scripts/layers.mjs')], { cwd: root, encoding: 'utf8', stdio: 'pipe' });
    expect(run).not.toThrow();
  });
});

/** The files a built entry loads before it runs: its static imports, transitively (not `import()`). */
function staticClosure(entry: string): string[] {
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\b[^;'"]*?from\s*["'](\.[^"']+)["']|^import\s*["'](\.[^"']+)["']/gm)) {
      walk(path.resolve(path.dirname(file), (m[1] ?? m[2])!));
    }
  };
  walk(entry);
  return [...seen];
}

describe('the built product holds no stand-in', () => {
  const outMain = path.join(root, 'out/main');
  // `npm test` builds before the unit tests; a bare `vitest run` without a build has nothing to read.
  const built = existsSync(path.join(outMain, 'cli.js'));
  it.skipIf(!built && !process.env['CI'])('the fake upstream is only behind a dynamic import of the commands that start it', () => {
    // A route only the fake serves: its request log.
    const marker = '/_fake/';
    const fakeChunks = staticClosure(path.join(outMain, 'cli.js')).filter((f) => readFileSync(f, 'utf8').includes(marker));
    expect(fakeChunks.map((f) => path.relative(root, f))).toEqual([]);
    for (const entry of ['index.js', 'service-worker.js']) {
      const loaded = staticClosure(path.join(outMain, entry)).filter((f) => readFileSync(f, 'utf8').includes(marker));
      expect(loaded.map((f) => path.relative(root, f))).toEqual([]);
    }
    // ... and the marker does find the fake where it is, so the check above can fail.
    const all = execFileSync('grep', ['-rl', marker, outMain], { encoding: 'utf8' }).trim().split('\n');
    expect(all.length).toBeGreaterThan(0);
  });
});
