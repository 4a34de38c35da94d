#!/usr/bin/env node
/**
 * The layers of marketdesk, written once. This table is the source of:
 *   - the lint rules: the `noRestrictedImports` overrides between the `layers` markers in
 *     biome.jsonc (a wrong-way import fails `npm run lint`, so `npm test`, naming its rule);
 *   - the layers table in docs/architecture.md (between the `layers` markers).
 * `node scripts/layers.mjs` checks both are current; `--write` regenerates them.
 *
 * A layer lists the folders (or files) it holds and the product folders it may NOT import. Test
 * files (`*.test.ts(x)`), harnesses and the fake upstream stand beside the product: they may
 * import it, and nothing in the product may import them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Product folders under src/, by name; the patterns below match a relative import at any depth. */
/** The renderer's building blocks; views and the shell (the app's frame) compose them. */
const RENDERER_PARTS = ['components', 'grid', 'hooks', 'panel', 'alerts', 'catalog', 'since', 'sparkline', 'diff'];
const SRC = ['contract', 'store', 'upstream', 'limits', 'auth', 'live', 'sync', 'alerts', 'icons', 'service', 'http', 'cli'];
const BESIDE = ['testing', 'fake-upstream', 'clients'];
const BESIDE_HOLDS = [...BESIDE.map((b) => `src/${b}/`), 'e2e/', 'bench/', 'scripts/'];
const dir = (name) => [`**/${name}/**`];
const besideRule = {
  forbid: [...BESIDE.flatMap(dir), '**/e2e/**', '**/bench/**'],
  why: 'tests, harnesses and the fake upstream stand beside the product, never under it',
};
const noElectron = { forbid: ['electron', 'electron/**'], why: 'Electron is imported only in main/' };
const srcExcept = (...allowed) => SRC.filter((s) => !allowed.includes(s)).flatMap(dir);

export const LAYERS = [
  {
    name: 'contract',
    holds: ['src/contract/'],
    mayImport: 'zod only; no Node or DOM types; what the renderer uses at run time is zod-free',
    includes: ['src/contract/**'],
    forbid: ['../**', 'node:*'],
  },
  {
    name: 'ground',
    holds: ['src/logger.ts', 'src/package-root.ts'],
    mayImport: 'contract, Node',
    includes: ['src/*.ts'],
    forbid: srcExcept('contract'),
  },
  {
    name: 'auth',
    holds: ['src/auth/'],
    mayImport: 'contract, ground',
    includes: ['src/auth/**'],
    forbid: srcExcept('contract', 'auth'),
  },
  {
    name: 'upstream',
    holds: ['src/upstream/'],
    mayImport: 'contract, ground, auth (it signs requests)',
    includes: ['src/upstream/**'],
    forbid: srcExcept('contract', 'upstream', 'auth'),
  },
  {
    name: 'limits',
    holds: ['src/limits/'],
    mayImport: "contract, ground, upstream's reply types",
    includes: ['src/limits/**'],
    forbid: srcExcept('contract', 'limits', 'upstream'),
  },
  {
    name: 'store',
    holds: ['src/store/', 'src/store/engine/'],
    mayImport: 'contract, ground',
    includes: ['src/store/**'],
    forbid: srcExcept('contract', 'store'),
  },
  {
    name: 'live',
    holds: ['src/live/'],
    mayImport: "contract, ground, upstream, limits (the scheduler's timers); the upstream market channel's sockets (`ws`), no store",
    includes: ['src/live/**'],
    forbid: srcExcept('contract', 'live', 'upstream', 'limits'),
  },
  {
    name: 'sync',
    holds: ['src/sync/', 'src/alerts/', 'src/icons/'],
    mayImport: 'store, upstream, limits, auth, live and below',
    includes: ['src/sync/**', 'src/alerts/**', 'src/icons/**'],
    forbid: srcExcept('contract', 'store', 'upstream', 'limits', 'auth', 'live', 'sync', 'alerts', 'icons'),
  },
  {
    name: 'service',
    holds: ['src/service/'],
    mayImport: 'sync and below (every handler, the dispatch, the push hub); never http',
    includes: ['src/service/**'],
    forbid: dir('http').concat(dir('cli')),
  },
  {
    name: 'http',
    holds: ['src/http/'],
    mayImport: 'service and below (the two faces, the push stream, the web UI, the server)',
    includes: ['src/http/**'],
    forbid: dir('cli'),
  },
  {
    name: 'commands',
    holds: ['src/cli/'],
    mayImport: 'the product; the fake upstream only by a dynamic import (a test checks the built CLI holds none of it)',
    includes: ['src/cli/**'],
    forbid: [],
    fakeByDynamicImport: true,
  },
  {
    name: 'main',
    holds: ['main/'],
    mayImport: 'http and below; the only place Electron is imported',
    includes: ['main/**', '!main/preload/**'],
    forbid: ['**/renderer/**', ...dir('cli')],
    electron: true,
  },
  {
    name: 'preload',
    holds: ['main/preload/'],
    mayImport: 'the contract and Electron',
    includes: ['main/preload/**'],
    forbid: ['**/src/*/**', '!**/src/contract/**', '../*.ts'],
    electron: true,
  },
  {
    name: 'renderer',
    holds: ['renderer/'],
    mayImport: 'the contract only (zod-free modules at run time: a test checks the bundle holds no zod)',
    includes: ['renderer/**', ...RENDERER_PARTS.map((p) => `!renderer/src/${p}/**`)],
    forbid: ['**/src/*/**', '!**/src/contract/**', '**/main/**', 'node:*'],
  },
  {
    name: 'renderer parts',
    holds: RENDERER_PARTS.map((p) => `renderer/src/${p}/`),
    mayImport: 'the contract and each other; never a view or the shell, which compose them',
    includes: RENDERER_PARTS.map((p) => `renderer/src/${p}/**`),
    forbid: ['**/src/*/**', '!**/src/contract/**', '**/main/**', 'node:*', '**/views/**', '**/shell/**'],
  },
];

/** The biome.jsonc overrides, one per layer. */
export function biomeOverrides() {
  return LAYERS.map((l) => {
    const patterns = [];
    if (l.forbid.length) {
      patterns.push({
        group: l.forbid,
        message: `layer rule "${l.name}": ${l.holds.join(', ')} may import ${l.mayImport} (docs/architecture.md, Layers)`,
      });
    }
    const beside = l.fakeByDynamicImport ? besideRule.forbid.filter((p) => p !== '**/fake-upstream/**') : besideRule.forbid;
    patterns.push({ group: beside, message: `layer rule "beside": ${besideRule.why}` });
    if (!l.electron) patterns.push({ group: noElectron.forbid, message: `layer rule "electron": ${noElectron.why}` });
    return {
      includes: [...l.includes, '!**/*.test.ts', '!**/*.test.tsx'],
      linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } },
    };
  });
}

export function docsTable() {
  const rows = LAYERS.map((l) => `| ${l.name} | ${l.holds.map((h) => `\`${h}\``).join(', ')} | ${l.mayImport} |`);
  return [
    '| layer (bottom to top) | holds | may import |',
    '| --- | --- | --- |',
    ...rows,
    `| beside | ${[...BESIDE_HOLDS, '*.test.ts(x)'].map((h) => `\`${h}\``).join(', ')} | anything; nothing in the product imports them |`,
  ].join('\n');
}

const MARK = {
  biome: ['// <layers: generated by scripts/layers.mjs, do not edit by hand>', '// </layers>'],
  docs: ['<!-- layers: generated by scripts/layers.mjs -->', '<!-- /layers -->'],
};

function between(text, [open, close], body) {
  const a = text.indexOf(open);
  const b = text.indexOf(close);
  if (a < 0 || b < a) return undefined;
  const closeLine = text.lastIndexOf('\n', b) + 1;
  return `${text.slice(0, a + open.length)}\n${body}\n${text.slice(closeLine)}`;
}

/** Parses JSONC: drops comments outside strings and trailing commas. */
function parseJsonc(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = /"(?:[^"\\]|\\.)*"/y;
      end.lastIndex = i;
      const m = end.exec(text);
      out += m[0];
      i += m[0].length - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[\]}])/g, '$1'));
}

function check(write) {
  let stale = 0;
  const biomeFile = path.join(root, 'biome.jsonc');
  const biome = readFileSync(biomeFile, 'utf8');
  const want = biomeOverrides();
  const have = parseJsonc(biome).overrides ?? [];
  const layerOverrides = have.filter((o) => o.linter?.rules?.style?.noRestrictedImports);
  if (JSON.stringify(layerOverrides) !== JSON.stringify(want)) {
    const next = between(biome, MARK.biome, want.map((o) => `${JSON.stringify(o)},`).join('\n'));
    if (write && next !== undefined) {
      writeFileSync(biomeFile, next);
      execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', biomeFile], { stdio: 'inherit' });
      console.log('layers: wrote biome.jsonc');
    } else {
      console.error("layers: biome.jsonc's layer rules are out of date with scripts/layers.mjs: run node scripts/layers.mjs --write");
      stale++;
    }
  }
  const docsFile = path.join(root, 'docs/architecture.md');
  const docs = readFileSync(docsFile, 'utf8');
  const nextDocs = between(docs, MARK.docs, docsTable());
  if (nextDocs === undefined) {
    console.error('layers: docs/architecture.md has no layers block (its markers are missing)');
    stale++;
  } else if (nextDocs !== docs) {
    if (write) {
      writeFileSync(docsFile, nextDocs);
      console.log('layers: wrote docs/architecture.md');
    } else {
      console.error("layers: docs/architecture.md's layers table is out of date: run node scripts/layers.mjs --write");
      stale++;
    }
  }
  return stale;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = check(process.argv.includes('--write')) ? 1 : 0;
}
