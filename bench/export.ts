/**
 * `npm run bench -- --only export`: catalog.export (GET /export/:list, CSV streamed) on the bench
 * cache, against what a script does without it: the same listing paged to its end over HTTP
 * (`limit=100`, the most the listing allows, `offset` stepping on). Each side runs in its own
 * serve process, so each peak RSS is its own. The two sides' ids are checked equal, in order.
 * Then the latency of other requests made on another connection while an export streams.
 */
import http from 'node:http';
import { cliProcess, percentile, rssMiB, table, type Proc } from './lib.ts';

export interface ExportBench {
  results: Record<string, unknown>;
  report: string[];
}

interface Walk {
  rows: number;
  seconds: number;
  /** Time to the first byte of the body (export) or of the first page (listing). */
  firstMs: number;
  bytes: number;
  ids: string[];
}

/** The listings measured: [name, export path, listing path (filters and sort)]. */
const LISTS: [string, string, string][] = [
  ['markets, no order (by id)', '/export/markets', '/markets?'],
  ['markets, order=volume24hr desc', '/export/markets?order=volume24hr', '/markets?order=volume24hr&'],
  ['events, closed=false, order=volume desc', '/export/events?closed=false&order=volume', '/events?closed=false&order=volume&'],
];
const PAGE = 100;

/** The export read as it streams: its ids (each line's first cell) counted as they come. */
function exportWalk(url: string, agent: http.Agent): Promise<Walk> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { agent }, (res) => {
        if (res.statusCode !== 200) return reject(new Error(`${url} answered ${res.statusCode}`));
        let firstMs = -1;
        let bytes = 0;
        let rest = '';
        const lines: string[] = [];
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (firstMs < 0) firstMs = performance.now() - t0;
          bytes += Buffer.byteLength(chunk);
          const parts = (rest + chunk).split('\r\n');
          rest = parts.pop()!;
          for (const l of parts) lines.push(l.slice(0, l.indexOf(',')));
        });
        res.on('end', () => {
          const ids = lines.slice(1); // the header's first cell is `id`
          resolve({ rows: ids.length, seconds: (performance.now() - t0) / 1000, firstMs, bytes, ids });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function getJson(url: string, agent: http.Agent): Promise<{ body: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}: ${body.toString().slice(0, 200)}`));
          else resolve({ body: body.toString(), bytes: body.length });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The baseline: the listing paged to its end, one keep-alive connection, as a script would. */
async function listingWalk(url: string, agent: http.Agent): Promise<Walk> {
  const t0 = performance.now();
  let firstMs = -1;
  let bytes = 0;
  const ids: string[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await getJson(`${url}limit=${PAGE}&offset=${offset}`, agent);
    if (firstMs < 0) firstMs = performance.now() - t0;
    bytes += page.bytes;
    const items = JSON.parse(page.body) as { id: string }[];
    for (const it of items) ids.push(it.id);
    if (items.length < PAGE) break;
  }
  return { rows: ids.length, seconds: (performance.now() - t0) / 1000, firstMs, bytes, ids };
}

async function serveProcess(cacheDir: string, procs: Proc[]): Promise<{ proc: Proc; base: string }> {
  const proc = cliProcess(['serve', '--offline', '--no-limits', '--data-dir', cacheDir, '--base-port', '0', '--clob-port', '0']);
  procs.push(proc);
  const base = (await proc.waitFor(/base: (http:\/\/\S+)/))[1]!;
  await getJson(`${base}/markets?limit=20`, new http.Agent());
  return { proc, base };
}

/**
 * Sequential `/markets?limit=20` requests (each URL new, so the response cache never answers) on
 * their own connection while `during` runs; their latencies in ms, sorted.
 */
async function latencyWhile(base: string, during: Promise<unknown>): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  void during.finally(() => (done = true));
  const times: number[] = [];
  try {
    for (let i = 0; !done; i++) {
      const t0 = performance.now();
      await getJson(`${base}/markets?limit=20&closed=false&order=volume&offset=${i * 20}`, agent);
      times.push(performance.now() - t0);
    }
  } finally {
    agent.destroy();
  }
  return times.sort((a, b) => a - b);
}

export async function benchExport(cacheDir: string, procs: Proc[]): Promise<ExportBench> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const walks: Record<string, { export: Walk; listing: Walk }> = {};
  const memory: Record<string, { startPeakMiB: number; peakMiB: number }> = {};

  // The export side, then the baseline side, each in a fresh process.
  const ex = await serveProcess(cacheDir, procs);
  const exStart = rssMiB(ex.proc.child.pid!).peak;
  const exports: Record<string, Walk> = {};
  for (const [name, path] of LISTS) exports[name] = await exportWalk(ex.base + path, agent);
  memory['export'] = { startPeakMiB: exStart, peakMiB: rssMiB(ex.proc.child.pid!).peak };
  // Other requests while the largest export streams (measured after, so the figures above are the export's alone).
  const during = exportWalk(ex.base + LISTS[0]![1], agent);
  const lat = await latencyWhile(ex.base, during);
  const duringWalk = await during;
  await ex.proc.stop();

  const ls = await serveProcess(cacheDir, procs);
  const lsStart = rssMiB(ls.proc.child.pid!).peak;
  for (const [name, , path] of LISTS) {
    const listing = await listingWalk(ls.base + path, agent);
    const exported = exports[name]!;
    const same = exported.ids.length === listing.ids.length && exported.ids.every((id, i) => id === listing.ids[i]);
    if (!same) throw new Error(`${name}: the export's ids differ from the listing's (${exported.rows} against ${listing.rows} rows)`);
    walks[name] = { export: exported, listing };
  }
  memory['listing'] = { startPeakMiB: lsStart, peakMiB: rssMiB(ls.proc.child.pid!).peak };
  await ls.proc.stop();
  agent.destroy();

  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  const rows: (string | number)[][] = [];
  const results: Record<string, unknown> = { memory };
  for (const [name] of LISTS) {
    const { export: e, listing: l } = walks[name]!;
    results[name] = {
      rows: e.rows,
      export: { seconds: e.seconds, rowsPerSec: e.rows / e.seconds, firstByteMs: e.firstMs, bodyMiB: e.bytes / 2 ** 20 },
      listing: {
        seconds: l.seconds,
        rowsPerSec: l.rows / l.seconds,
        firstPageMs: l.firstMs,
        bodyMiB: l.bytes / 2 ** 20,
        pages: Math.ceil((l.rows + 1) / PAGE),
      },
      speedup: l.seconds / e.seconds,
    };
    rows.push(
      [`${name}: GET /export (CSV)`, e.rows, e.seconds.toFixed(2), Math.round(e.rows / e.seconds), e.firstMs.toFixed(0), mib(e.bytes)],
      [
        `${name}: /${name.split(',')[0]} paged, limit=${PAGE} (JSON)`,
        l.rows,
        l.seconds.toFixed(2),
        Math.round(l.rows / l.seconds),
        l.firstMs.toFixed(0),
        mib(l.bytes),
      ],
      [`${name}: export speed-up`, '', `${(l.seconds / e.seconds).toFixed(1)}x`, '', '', ''],
    );
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const busy = {
    export: LISTS[0]![0],
    exportSeconds: duringWalk.seconds,
    requests: lat.length,
    p50: r2(percentile(lat, 50)),
    p99: r2(percentile(lat, 99)),
    max: r2(lat[lat.length - 1] ?? Number.NaN),
  };
  results['requestsDuringExport'] = busy;
  return {
    results,
    report: [
      '### Export: a whole listing as CSV (GET /export/:list) against the listing paged to its end over HTTP',
      table(['what', 'rows', 'total (s)', 'rows/s', 'first byte (ms)', 'body (MiB)'], rows),
      table(
        ['serve process', 'peak RSS after start (MiB)', 'peak RSS after the walks (MiB)'],
        [
          ['exports', memory['export']!.startPeakMiB.toFixed(0), memory['export']!.peakMiB.toFixed(0)],
          ['listing paged', memory['listing']!.startPeakMiB.toFixed(0), memory['listing']!.peakMiB.toFixed(0)],
        ],
      ),
      `### Requests on another connection while "${busy.export}" exports (${busy.exportSeconds.toFixed(1)} s), ms`,
      table(
        ['query', 'requests', 'p50', 'p99', 'max'],
        [['/markets?limit=20&closed=false&order=volume (each URL new)', busy.requests, busy.p50, busy.p99, busy.max]],
      ),
    ],
  };
}
