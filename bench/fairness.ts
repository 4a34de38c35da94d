/**
 * `npm run bench -- --only fairness`: the service under 100 connections of uncached mixed
 * catalog reads while incremental syncs write, for 3 runs of 60 s (`--fair-seconds`, `--fair-runs`).
 * Beside the load, a probe opens a new connection every 250 ms and times its first answer: a
 * new connection must get a fair share, not wait behind the established ones. Reported per
 * run: throughput, latency, timeouts, the probe's first-answer percentiles and the service's
 * RSS (no growth across runs). The ceiling is a bare Fastify route under the same load.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { baselineServer, cliProcess, get, rssMiB, table, tsxProcess, type Proc } from './lib.ts';

export interface FairnessOptions {
  cacheDir: string;
  markets: number;
  runs: number;
  seconds: number;
}

interface RunResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  timeouts: number;
  errors: number;
  non2xx: number;
  probes: number;
  probeP50: number;
  probeP99: number;
  probeMax: number;
  probeTimeouts: number;
  rssMiB?: number;
}

const CONNECTIONS = 100;
/** autocannon's per-request timeout and the probe's: an answer later than this is a timeout. */
const TIMEOUT_S = 10;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Time from opening a new TCP connection to the end of its first answer, or undefined on a timeout. */
function firstAnswer(url: string): Promise<number | undefined> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: TIMEOUT_S * 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    });
    req.on('timeout', () => {
      req.destroy();
      resolve(undefined);
    });
    req.on('error', () => resolve(undefined));
  });
}

/** One loaded run: autocannon at CONNECTIONS plus the new-connection probe, both for `seconds`. */
async function loadedRun(nextPath: () => string, base: string, seconds: number): Promise<RunResult> {
  const probeTimes: number[] = [];
  let probeTimeouts = 0;
  let probing = true;
  const probes: Promise<void>[] = [];
  const probeLoop = (async () => {
    while (probing) {
      probes.push(
        firstAnswer(`${base}${nextPath()}`).then((ms) => {
          if (ms === undefined) probeTimeouts++;
          else probeTimes.push(ms);
        }),
      );
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  const r = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    timeout: TIMEOUT_S,
    requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }) }],
  });
  probing = false;
  await probeLoop;
  await Promise.all(probes);
  probeTimes.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x);
  return {
    requestsPerSec: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    timeouts: r.timeouts,
    errors: r.errors,
    non2xx: r.non2xx,
    probes: probeTimes.length + probeTimeouts,
    probeP50: round(percentile(probeTimes, 50)),
    probeP99: round(percentile(probeTimes, 99)),
    probeMax: round(probeTimes[probeTimes.length - 1] ?? Number.NaN),
    probeTimeouts,
  };
}

export async function fairnessBench(opts: FairnessOptions): Promise<{ results: Record<string, unknown>; report: string[] }> {
  const procs: Proc[] = [];
  // A copy of the bench cache: the incremental syncs write to it.
  const dir = path.join(os.tmpdir(), `marketdesk-fairness-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(path.join(opts.cacheDir, 'catalog.sqlite'), path.join(dir, 'catalog.sqlite'));
  const up = tsxProcess(['bench/fairness-upstream.ts', String(opts.markets)]);
  procs.push(up);
  const upstream = { url: (await up.waitFor(/listening on (http:\/\/\S+)/))[1]! };
  try {
    const serve = cliProcess([
      'serve',
      '--data-dir',
      dir,
      '--base-port',
      '0',
      '--clob-port',
      '0',
      '--no-limits',
      // FAIRNESS_OFFLINE=1: no sync at all, to tell load-alone from load-while-writing when investigating.
      ...(process.env['FAIRNESS_OFFLINE']
        ? ['--offline']
        : [
            '--gamma-url',
            upstream.url,
            '--clob-url',
            upstream.url,
            '--data-url',
            upstream.url,
            '--sync-interval',
            '5',
            // The horizon the bench cache was synced with: a shorter one would prune it first.
            '--horizon-days',
            '36500',
          ]),
    ]);
    procs.push(serve);
    const base = (await serve.waitFor(/base: (http:\/\/\S+)/))[1]!;
    const sample = JSON.parse((await get(`${base}/markets?limit=100&offset=500&order=volume`)).body) as { id: string }[];
    let i = 0;
    // Uncached (a new URL each time) and mixed: listings at many offsets and sorts, events, by id, search.
    const nextPath = () => {
      const n = i++;
      switch (n % 6) {
        case 0:
          return `/markets?limit=20&closed=false&order=volume&offset=${(n * 20) % 20_000}`;
        case 1:
          return `/markets?limit=20&active=true&closed=false&order=volume24hr&offset=${(n * 20) % 10_000}`;
        case 2:
          return `/events?limit=20&closed=false&order=volume&offset=${n % 5000}`;
        case 3:
          return `/markets/${sample[n % sample.length]!.id}?n=${n}`;
        case 4:
          return `/public-search?q=${['bitcoin', 'election', 'will', 'price', 'cup'][n % 5]}&limit_per_type=5&page=${1 + (n % 40)}`;
        default:
          return `/markets?limit=20&order=endDate&ascending=true&offset=${(n * 20) % 20_000}`;
      }
    };
    const runs: RunResult[] = [];
    for (let r = 0; r < opts.runs; r++) {
      const run = await loadedRun(nextPath, base, opts.seconds);
      run.rssMiB = Math.round(rssMiB(serve.child.pid!).rss);
      runs.push(run);
      process.stderr.write(`fairness run ${r + 1}: ${JSON.stringify(run)}\n`);
    }
    const synced = JSON.parse((await get(`${base}/status`)).body) as { sync: { lastSuccessAt: string | null } };
    const { bytes } = await get(`${base}/markets?limit=20&closed=false&order=volume`);
    await serve.stop();

    // The ceiling: a bare Fastify route with a body of a typical answer's size, the same load and probe.
    const baseline = await baselineServer(bytes);
    const baseUrl = baseline.url.replace(/\/markets$/, '');
    const ceiling = await loadedRun(() => '/markets', baseUrl, Math.min(opts.seconds, 20));
    baseline.stop();

    const row = (name: string, x: RunResult) => [
      name,
      x.requestsPerSec,
      x.p50,
      x.p99,
      x.timeouts,
      x.errors,
      x.non2xx,
      x.probes,
      x.probeP50,
      x.probeP99,
      x.probeMax,
      x.probeTimeouts,
      x.rssMiB ?? '',
    ];
    return {
      results: { connections: CONNECTIONS, seconds: opts.seconds, runs, ceiling, lastSyncAt: synced.sync.lastSuccessAt },
      report: [
        `### Fairness: ${CONNECTIONS} connections of uncached mixed reads while incremental syncs write ` +
          `(${opts.runs} × ${opts.seconds} s), and a new connection every 250 ms`,
        table(
          [
            'run',
            'req/s',
            'p50 (ms)',
            'p99 (ms)',
            'timeouts',
            'errors',
            'non-2xx',
            'new conns',
            'first answer p50',
            'p99',
            'max',
            'new-conn timeouts',
            'RSS (MiB)',
          ],
          [...runs.map((x, n) => row(`service, run ${n + 1}`, x)), row('baseline: bare Fastify, constant body', ceiling)],
        ),
      ],
    };
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}
