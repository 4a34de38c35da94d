#!/usr/bin/env node
/**
 * No source line over 140 characters. Biome's formatter wraps code at that width but leaves
 * comments and string literals as written, so this catches what it cannot fix.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const MAX = 140;
const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs|css|html|sh)$|^\.ci\/run$/;
// Recorded data and copied documents are kept as they came.
const KEPT = /^(fixtures|docs|bench\/results)\//;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && SOURCE.test(f) && !KEPT.test(f));
const long = [];
for (const f of files) {
  let text;
  try {
    text = readFileSync(f, 'utf8');
  } catch {
    continue; // listed by git but deleted in the working tree
  }
  text.split('\n').forEach((line, i) => {
    if ([...line].length > MAX) long.push(`${f}:${i + 1}: ${[...line].length} characters`);
  });
}
if (long.length) {
  console.error(`${long.length} line(s) over ${MAX} characters:\n${long.join('\n')}`);
  process.exit(1);
}
console.log(`line length: ${files.length} files, no line over ${MAX} characters`);
