/**
 * `npx tsx bench/fake-serve.ts [markets] [node flags...]`: what the fake upstream itself costs to
 * serve a full sync's two keyset walks (open events and open markets, 100 a page, two chains at
 * once as the sync runs them), with the bodies read but not parsed. On a 2-core machine the fake
 * shares the CPU with the sync, so this is the part of `--only sync` that a remote Gamma would not
 * cost. Prints the wall time and the fake process's CPU seconds (generation at start excluded).
 * Needs a build (`npm run build`).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from './lib.ts';

const markets = process.argv[2] ?? '100000';
const flags = process.argv.slice(3);
const fake = spawn(
  process.execPath,
  [...flags, 'out/main/cli.js', 'fake-upstream', '--port', '0', '--synthetic', markets, '--seed', '1', '--limits', 'off'],
  {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise<string>((resolve, reject) => {
  let out = '';
  fake.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    const m = /listening on (http:\/\/\S+)/.exec(out);
    if (m) resolve(m[1]!);
  });
  fake.once('exit', (code) => reject(new Error(`fake upstream exited (${code})`)));
});

/** User + system CPU seconds of the fake process so far (Linux). */
const cpu = () => {
  const f = readFileSync(`/proc/${fake.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

async function walk(kind: 'events' | 'markets'): Promise<number> {
  let cursor = '';
  let pages = 0;
  for (;;) {
    const after = cursor ? `&after_cursor=${encodeURIComponent(cursor)}` : '';
    const text = await (await fetch(`${url}/${kind}/keyset?closed=false&limit=100${after}`)).text();
    pages++;
    const next = /"next_cursor":"([^"]*)"\}$/.exec(text);
    if (!next?.[1]) return pages;
    cursor = next[1];
  }
}

const cpu0 = cpu();
const t0 = performance.now();
try {
  const [events, marketPages] = await Promise.all([walk('events'), walk('markets')]);
  const wall = (performance.now() - t0) / 1000;
  console.log(
    `${markets} markets${flags.length ? ` (${flags.join(' ')})` : ''}: ${events} event pages and ${marketPages} market pages ` +
      `in ${wall.toFixed(1)} s; the fake upstream's CPU: ${(cpu() - cpu0).toFixed(1)} s`,
  );
} finally {
  fake.kill();
}
