/**
 * The docs stay true to the tree: every relative link in README.md and docs/*.md resolves (its
 * #anchor too, by GitHub's heading slugs), every repo path they name in backticks exists, and
 * every docs/ file a source comment cites exists. The README stays short.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const DOCS = [
  'README.md',
  ...readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
/** Top folders a backticked repo path starts with; other backticked words are names, not paths. */
const REPO_DIRS = new Set(['src', 'main', 'renderer', 'bench', 'scripts', 'e2e', 'docs', 'fixtures', 'resources', '.ci']);
/** Paths the docs name that exist only after a build or a run (said so where they are named). */
const MADE_AT_RUN_TIME = /^(out|test-results|bench\/\.cache|bench\/results)(\/|$)/;

const withoutFences = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');
}

function anchors(file: string): Set<string> {
  const out = new Set<string>();
  const counts = new Map<string, number>();
  for (const m of withoutFences(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.*?)\s*$/gm)) {
    const s = slug(m[1]!);
    const n = counts.get(s) ?? 0;
    counts.set(s, n + 1);
    out.add(n === 0 ? s : `${s}-${n}`);
  }
  return out;
}

describe('the docs', () => {
  it('link only to files and headings that exist', () => {
    const bad: string[] = [];
    for (const doc of DOCS) {
      const text = withoutFences(readFileSync(path.join(root, doc), 'utf8'));
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const link = m[1]!;
        if (/^[a-z]+:/.test(link)) continue;
        const [file, frag] = link.split('#') as [string, string | undefined];
        const target = file ? path.resolve(root, path.dirname(doc), file) : path.join(root, doc);
        if (!existsSync(target)) bad.push(`${doc}: ${link} (no such file)`);
        else if (frag && target.endsWith('.md') && !anchors(target).has(frag)) bad.push(`${doc}: ${link} (no such heading)`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('name only repo paths that exist', () => {
    const bad: string[] = [];
    // docs/upstream/ holds notes on other projects' sources: their paths are those repos'.
    for (const doc of DOCS.filter((d) => !d.startsWith('docs/upstream/'))) {
      const text = withoutFences(readFileSync(path.join(root, doc), 'utf8'));
      for (const m of text.matchAll(/`([\w./-]+)`/g)) {
        const p = m[1]!.replace(/^\.\//, '');
        if (!REPO_DIRS.has(p.split('/')[0]!) || !p.includes('/') || MADE_AT_RUN_TIME.test(p)) continue;
        if (!existsSync(path.join(root, p)) && !existsSync(path.resolve(root, path.dirname(doc), p))) bad.push(`${doc}: ${p}`);
      }
    }
    expect([...new Set(bad)]).toEqual([]);
  });

  it('cited by source comments exist', () => {
    const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', 'src', 'main', 'renderer', 'bench', 'scripts', 'e2e'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => /\.(ts|tsx|mjs)$/.test(f) && existsSync(path.join(root, f)));
    const bad: string[] = [];
    for (const f of files) {
      for (const m of readFileSync(path.join(root, f), 'utf8').matchAll(/\b(docs\/[\w./-]+\.md|README\.md|DESIGN\.md)\b/g)) {
        const cited = m[1]!;
        const near = path.join(root, path.dirname(f), cited);
        if (!existsSync(path.join(root, cited)) && !existsSync(near)) bad.push(`${f}: ${cited}`);
      }
    }
    expect([...new Set(bad)]).toEqual([]);
  });

  it('keep the README to what a newcomer reads in five minutes', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(350);
    // The first screen: what it is, and the commands.
    const firstScreen = readme.split('\n').slice(0, 45).join('\n');
    for (const cmd of ['npm ci', 'npm start', 'npm run demo', 'npm run serve', 'npm test']) expect(firstScreen).toContain(cmd);
  });
});
