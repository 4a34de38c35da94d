/**
 * The renderer bundle holds no zod: the renderer imports only the contract's plain-data modules
 * at run time (scripts/layers.mjs, "renderer"); a value import of an operations module would bring
 * zod's validation into the page. Builds nothing: `npm test` builds before the
 * unit tests, and vitest's global setup rebuilds a stale out/. Without out/renderer the check is
 * skipped locally and fails under CI=true, where a missing bundle means the build did not run.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const assets = path.join(root, 'out/renderer/assets');
const built = existsSync(assets);
const ci = process.env['CI'] === 'true';

/** Names zod gives its classes as string literals, so they survive minification. */
const ZOD_MARKERS = ['$ZodType', 'ZodError'];

function zodSources(): string {
  const dir = path.dirname(createRequire(import.meta.url).resolve('zod/package.json'));
  return ['v4/core/schemas.js', 'v4/classic/errors.js'].map((f) => readFileSync(path.join(dir, f), 'utf8')).join('\n');
}

describe('renderer bundle', () => {
  it('the markers are zod’s own (the check below is not vacuous)', () => {
    const sources = zodSources();
    for (const marker of ZOD_MARKERS) expect(sources, marker).toContain(`"${marker}"`);
  });

  it.skipIf(!built && !ci)('holds no zod (out/renderer/assets/*.js)', () => {
    expect(built, 'out/renderer/assets is missing: run `npm run build` first').toBe(true);
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const file of scripts) {
      const text = readFileSync(path.join(assets, file), 'utf8');
      for (const marker of ZOD_MARKERS) expect(text.includes(marker), `${file} contains "${marker}"`).toBe(false);
    }
  });
});
