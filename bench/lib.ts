/**
 * Benchmark plumbing: child processes of the real CLI, sequential HTTP on one keep-alive
 * connection, percentiles, and the resident memory of a process read from /proc.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI_ENTRY } from '../src/testing/built-cli.ts';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Proc {
  child: ChildProcess;
  output: () => string;
  /** Resolves with the first match of `re` in stdout+stderr. */
  waitFor: (re: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  stop: () => Promise<void>;
}

/**
 * Runs the CLI in its own Node process: the built out/main/cli.js as `npm run serve` does, or
 * (runner 'tsx') the TypeScript sources as it did before, for the start-up comparison.
 */
export function cliProcess(args: string[], runner: 'built' | 'tsx' = 'built', nodeFlags: string[] = []): Proc {
  return nodeProcess([
    ...nodeFlags,
    ...(runner === 'built' ? [CLI_ENTRY, ...args] : ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), ...args]),
  ]);
}

/** A bench helper script (`bench/x.ts args`) through tsx, in its own process. */
export function tsxProcess(args: string[]): Proc {
  return nodeProcess(['--import', 'tsx', ...args]);
}

function nodeProcess(argv: string[]): Proc {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const w of [...waiters]) {
      const m = out.match(w.re);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    waitFor: (re) =>
      new Promise((resolve, reject) => {
        const m = out.match(re);
        if (m) return resolve(m);
        waiters.push({ re, resolve });
        void exited.then((code) => reject(new Error(`process exited (${code}) before ${re}: ${out.slice(-2000)}`)));
      }),
    exited,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Resident set size (and its peak) of a live process, in MiB. */
export function rssMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET on the shared keep-alive connection; resolves with status, body length and body. */
export function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          bytes += c.length;
        });
        // Decoded only when read: a timed loop looks at status and size, and decoding 300 KB
        // would be the harness's cost, not the service's.
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            get body() {
              return Buffer.concat(chunks).toString();
            },
          }),
        );
      })
      .on('error', reject);
  });
}

export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  bytes: number;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Sequential requests on one connection, after a warm-up. */
/** `headers`: made per request (a signature carries its time), before the clock starts. */
export async function measure(
  url: string | (() => string),
  n: number,
  warmup = 30,
  headers?: (url: string) => Record<string, string>,
): Promise<Latency> {
  const next = typeof url === 'string' ? () => url : url;
  let bytes = 0;
  for (let i = 0; i < warmup; i++) {
    const u = next();
    await get(u, headers?.(u));
  }
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = next();
    const h = headers?.(u);
    const t0 = performance.now();
    const r = await get(u, h);
    times.push(performance.now() - t0);
    if (r.status !== 200) throw new Error(`${u} answered ${r.status}: ${r.body.slice(0, 200)}`);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return {
    n,
    p50: r2(percentile(times, 50)),
    p95: r2(percentile(times, 95)),
    p99: r2(percentile(times, 99)),
    max: r2(times[times.length - 1]!),
    bytes,
  };
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * The ceiling for this machine: a bare Fastify route (`/markets`) answering a constant JSON
 * body of `bytes`, in its own process like the service, so latency compares like with like.
 */
export async function baselineServer(bytes: number): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/baseline-server.ts'), String(bytes)], { cwd: ROOT });
  const url = await new Promise<string>((resolve) =>
    child.stdout.on('data', (d: Buffer) => {
      const m = /listening on (http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]!);
    }),
  );
  return { url: `${url}/markets`, stop: () => void child.kill('SIGTERM') };
}
