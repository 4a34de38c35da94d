/**
 * The parent side of the kill tests (crash-safety.test.ts, 10 kills) and the kill bench
 * (bench/kills.ts, 50 and more): runs crash-child.ts in one of its modes, SIGKILLs it at a random
 * point, then checks what it left. Every random choice (the mode's kill point, the delay, the
 * batches deleted) comes from the caller's seeded generator (testing/seed.ts), never Math.random,
 * so a run's choices replay from its seed. After every kill the cache must open (completing an upgrade
 * the kill cut short), pass `PRAGMA integrity_check` (and the search index's own check), have the
 * whole current schema, and hold every batch whose COMMIT had returned, each whole or absent;
 * nothing may pile up beside it (temp files, a WAL growing past one transaction).
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Rng } from '../fake-upstream/prng.ts';
import { CACHE_FILE, CatalogStore } from '../store/catalog-store.ts';
import { MIGRATIONS } from '../store/migrations.ts';
import { dropEntityIndexes } from '../store/schema.ts';
import { configureDisk, lockCache, sqlDisk } from '../store/sqlite.ts';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const KILL_MODES = ['sync', 'bulk', 'vacuum', 'upgrade'] as const;
export type KillMode = (typeof KILL_MODES)[number];

/**
 * What a cache dir may hold right after a kill: the file, its journal, the dead child's lock, and a
 * bulk load's search-index scratch file (search-build.ts). The reopen must remove the last two: the
 * check after closing allows nothing but the file.
 */
const AFTER_KILL = /^catalog\.sqlite(-wal|-journal|\.lock|\.tmp-\d+-search)?$/;
/** The WAL may hold one transaction (a VACUUM writes the whole file into it) plus SQLite's journal_size_limit. */
const WAL_SLACK = 64 << 20;

export interface ChildRun {
  lines: string[];
  committed: number[];
  /** Died of the SIGKILL (not ended by itself first). */
  killed: boolean;
  /** The line after which the kill was aimed; when that line starts a phase, whether the kill came before its end line. */
  after: string;
  inside: boolean;
  /** From `after` to the end line, when the child got there (the phase's length, for aiming the next kill). */
  phaseMs?: number;
  /** From `after` to the kill. */
  killDelayMs?: number;
  code: number | null;
  stderr: string;
}

/**
 * Runs the child; kills it `at` × `within` ms after it prints `after` (never if it does not; `at`
 * is a draw in [0, 1) from the caller's seeded generator), and notes whether that was before it printed `end`.
 */
export function runChild(mode: KillMode, dir: string, args: (string | number)[], after: string, within: number, at: number, end?: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir, ...args.map(String)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: ChildRun = { lines: [], committed: [], killed: false, after, inside: false, code: null, stderr: '' };
  let buffered = '';
  let afterAt: number | undefined;
  let killAt: number | undefined;
  let endAt: number | undefined;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (s: string) => {
    run.stderr += s;
  });
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      run.lines.push(line);
      const m = /^committed (\d+)$/.exec(line);
      if (m) run.committed.push(Number(m[1]));
      if (line === end && afterAt !== undefined) endAt ??= performance.now();
      if (line === after && afterAt === undefined) {
        afterAt = performance.now();
        const delay = at * within;
        run.killDelayMs = delay;
        setTimeout(() => {
          killAt = performance.now();
          child.kill('SIGKILL');
        }, delay);
      }
    }
  });
  return new Promise<ChildRun>((resolve) =>
    child.on('exit', (code, signal) => {
      run.code = code;
      run.killed = signal === 'SIGKILL';
      run.inside = run.killed && end !== undefined && killAt !== undefined && endAt === undefined;
      if (afterAt !== undefined && endAt !== undefined) run.phaseMs = endAt - afterAt;
      resolve(run);
    }),
  );
}

const names = (dir: string) => readdirSync(dir).sort();
const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/** The schema a cache has once opened by this build (sqlite_* tables aside: ANALYZE's statistics come and go). */
export async function completeSchema(store: CatalogStore): Promise<string[]> {
  return store.statements
    .all("SELECT type || ' ' || name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 1")
    .map((r) => String(r[0]));
}

/**
 * Drops the columns later migrations added to the tables a v`version` cache already had (their
 * `ALTER TABLE … ADD COLUMN`s, e.g. v7's protocol fields), so the file is what that build wrote.
 */
export function dropColumnsAfter(db: { exec(sql: string): unknown }, version: number, tables: readonly string[]): void {
  for (const sql of MIGRATIONS.slice(version)) {
    for (const [, table, column] of sql.matchAll(/ALTER TABLE (\w+) ADD COLUMN "?(\w+)"?/g)) {
      if (!tables.includes(table!)) continue;
      // An indexed column cannot be dropped: its indexes go first (the next open makes them again: schema.ts ensureIndexes).
      const indexes = db.exec(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '${table}' AND instr(sql, '${column}')`,
      ) as { values: unknown[][] }[];
      for (const [name] of indexes[0]?.values ?? []) db.exec(`DROP INDEX "${String(name)}"`);
      db.exec(`ALTER TABLE ${table} DROP COLUMN "${column}"`);
    }
  }
}

/**
 * Turns the cache into one an older build wrote (the in-memory era's v1): only the v1 tables,
 * no search index, no triggers, none of the sort indexes, and two (closed, key) indexes that
 * later builds replaced. The rows stay. Opening it runs the whole upgrade.
 */
export async function downgradeCache(dir: string): Promise<void> {
  const file = path.join(dir, CACHE_FILE);
  const { disk } = await sqlDisk();
  if (!disk) throw new Error('no disk access from sql.js');
  const unlock = lockCache(file);
  const db = disk.open(file);
  try {
    configureDisk(db, 16 << 10, false);
    const list = (sql: string) => db.exec(sql)[0]?.values.map((r) => String(r[0])) ?? [];
    const v1 = ['markets', 'events', 'market_events', 'tags', 'event_tags', 'market_tags', 'series', 'event_series', 'meta'];
    db.exec('BEGIN');
    for (const name of list("SELECT name FROM sqlite_master WHERE type = 'trigger'")) db.exec(`DROP TRIGGER "${name}"`);
    for (const name of list("SELECT name FROM sqlite_master WHERE type = 'view'")) db.exec(`DROP VIEW "${name}"`);
    // Virtual tables first: they drop their own shadow tables.
    for (const name of list("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'"))
      db.exec(`DROP TABLE "${name}"`);
    const keep = v1.map((t) => `'${t}'`).join(', ');
    for (const name of list(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN (${keep})`))
      db.exec(`DROP TABLE IF EXISTS "${name}"`);
    dropEntityIndexes(db);
    dropColumnsAfter(db, 1, v1);
    db.exec('CREATE INDEX markets_closed_volume24hr ON markets("closed", "volume24hr")');
    db.exec('CREATE INDEX events_closed_title ON events("closed", "title")');
    db.exec('PRAGMA user_version = 1');
    db.exec('COMMIT');
    db.exec('PRAGMA journal_mode = DELETE');
  } finally {
    db.close();
    unlock();
  }
}

/** The sqlite3 tool's integrity_check of a copy of the crashed file and its journal (it recovers the copy, not ours). */
function nativeCheck(dir: string): string {
  const copy = `${dir}-native-check`;
  mkdirSync(copy, { recursive: true });
  try {
    for (const f of readdirSync(dir).filter((n) => n.startsWith(CACHE_FILE))) copyFileSync(path.join(dir, f), path.join(copy, f));
    const r = spawnSync('sqlite3', [path.join(copy, CACHE_FILE), 'PRAGMA integrity_check'], { encoding: 'utf8' });
    return (r.stdout + r.stderr).trim();
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

export const hasSqlite3 = spawnSync('sqlite3', ['-version']).status === 0;

export interface CacheCheck {
  /** Empty when the cache passed. */
  problems: string[];
  /** Opening the crashed cache (WAL recovery, and finishing an upgrade the kill cut short). */
  reopenMs: number;
  /** Files beside the cache after the kill other than its journal and lock, and after the reopen other than the file. */
  leftovers: string[];
  walBytes: number;
  fileBytes: number;
  /** Markets in the cache (to see it is not empty by accident). */
  markets: number;
}

/**
 * Checks the cache in `dir` after a kill: what lies beside it, then it opens, passes
 * integrity_check, has the `schema`, holds every batch in `committed` whole, and every batch whole
 * or absent; after closing, only the file is left.
 */
export async function checkCache(dir: string, committed: Iterable<number>, batch: number, schema: string[]): Promise<CacheCheck> {
  const problems: string[] = [];
  const file = path.join(dir, CACHE_FILE);
  const leftovers = names(dir).filter((n) => !AFTER_KILL.test(n));
  const fileBytes = sizeOf(file);
  const walBytes = sizeOf(`${file}-wal`);
  if (leftovers.length > 0) problems.push(`left beside the cache by the kill: ${leftovers.join(', ')}`);
  if (walBytes > fileBytes + WAL_SLACK) problems.push(`the WAL is ${walBytes} bytes, the file ${fileBytes}`);
  if (hasSqlite3) {
    const native = nativeCheck(dir);
    if (native !== 'ok') problems.push(`sqlite3 integrity_check: ${native}`);
  }
  const t0 = performance.now();
  let store: CatalogStore;
  try {
    store = await CatalogStore.open({ dataDir: dir });
  } catch (e) {
    return { problems: [...problems, `open: ${(e as Error).message}`], reopenMs: NaN, leftovers, walBytes, fileBytes, markets: 0 };
  }
  const reopenMs = performance.now() - t0;
  let markets = 0;
  try {
    if (store.movedAside) problems.push(`moved aside to ${store.movedAside}`);
    const integrity = store.statements.value('PRAGMA integrity_check');
    if (integrity !== 'ok') problems.push(`integrity_check: ${String(integrity)}`);
    try {
      store.search.verify();
    } catch (e) {
      problems.push(`search index: ${(e as Error).message}`);
    }
    const have = await completeSchema(store);
    const missing = schema.filter((s) => !have.includes(s));
    const extra = have.filter((s) => !schema.includes(s));
    if (missing.length + extra.length > 0) problems.push(`schema: missing ${missing.join(', ')}; extra ${extra.join(', ')}`);
    const sizes = new Map(
      store.statements.all('SELECT id / 10000, count(*) FROM markets GROUP BY 1').map((r) => [Number(r[0]), Number(r[1])]),
    );
    for (const n of committed) if (sizes.get(n) !== batch) problems.push(`batch ${n} was committed; it has ${sizes.get(n) ?? 0} markets`);
    for (const [n, c] of sizes) if (c !== batch) problems.push(`batch ${n} is torn: ${c} of ${batch} markets`);
    markets = store.reader.counts().markets;
  } finally {
    await store.close();
  }
  const after = names(dir).filter((n) => n !== CACHE_FILE);
  if (after.length > 0) problems.push(`left beside the closed cache: ${after.join(', ')}`);
  return { problems, reopenMs, leftovers: [...leftovers, ...after], walBytes, fileBytes, markets };
}

export interface KillOutcome {
  mode: KillMode;
  run: ChildRun;
  check: CacheCheck;
}

export interface RigOptions {
  /** Markets per batch. */
  batch: number;
  /** Batches per sync run, per bulk load, and deleted before each vacuum. */
  syncBatches: number;
  bulkBatches: number;
  vacuumBatches: number;
}

/**
 * A cache under repeated kills. The sync, vacuum and upgrade runs work on one populated cache
 * (`<root>/main`), which keeps what each run committed; each bulk load starts from an empty dir.
 */
export class KillRig {
  /** Batches of the main cache whose COMMIT returned: they must be there after every kill. */
  readonly committed = new Set<number>();
  private next = 0;
  private bulks = 0;
  private schema: string[] = [];
  /** How long each aimed-at phase took when last seen whole (ms): kills are aimed inside it. */
  readonly phaseMs: Record<string, number> = { indexing: 300, vacuuming: 300, upgrading: 500 };

  /** @param rng every random choice of the kills (seeded: testing/seed.ts) */
  constructor(
    readonly root: string,
    readonly opts: RigOptions,
    private readonly rng: Rng,
  ) {}

  get main(): string {
    return path.join(this.root, 'main');
  }

  /** The schema to expect, and `batches` bulk-loaded into the main cache (not killed). */
  async seed(batches: number): Promise<void> {
    const fresh = path.join(this.root, 'schema');
    const store = await CatalogStore.open({ dataDir: fresh });
    this.schema = await completeSchema(store);
    await store.close();
    rmSync(fresh, { recursive: true, force: true });
    const run = await runChild('bulk', this.main, [0, batches, this.opts.batch], '', 0, 0);
    if (run.code !== 0) throw new Error(`seeding the cache failed: ${run.stderr}`);
    for (const n of run.committed) this.committed.add(n);
    this.next = batches;
  }

  /** One run of `mode` killed at a random point (or ending by itself), and the check of what it left. */
  async kill(mode: KillMode): Promise<KillOutcome> {
    const { batch } = this.opts;
    const random = this.rng;
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const aim = (line: string) => this.phaseMs[line] ?? 30;
    let run: ChildRun;
    let dir = this.main;
    let committed: Iterable<number> = this.committed;
    if (mode === 'sync' || mode === 'bulk') {
      const k = mode === 'sync' ? this.opts.syncBatches : this.opts.bulkBatches;
      const first = mode === 'sync' ? this.next : 0;
      if (mode === 'bulk') dir = path.join(this.root, `bulk-${this.bulks++}`);
      // While opening (recovering the last crash), after a random batch, in the index rebuild or while closing.
      // A bulk load aims at its index rebuild half the time: it writes the most in one go.
      const r = mode === 'bulk' && random() < 1 / 2 ? k : Math.floor(random() * (k + 2)) - 1;
      const after = r < 0 ? 'open' : r < k ? `committed ${first + r}` : mode === 'bulk' ? 'indexing' : 'closing';
      run = await runChild(mode, dir, [first, k, batch], after, aim(after), random(), after === 'indexing' ? 'indexed' : undefined);
      if (mode === 'sync') {
        for (const n of run.committed) this.committed.add(n);
        this.next += k;
      } else committed = run.committed;
    } else if (mode === 'vacuum') {
      // The deleted batches may be whole or gone after the kill: they leave the must-have set first.
      // A seeded Fisher-Yates shuffle (sort() with a random comparator depends on the engine's sort).
      const doomed = [...this.committed].sort((a, b) => a - b);
      for (let i = doomed.length - 1; i > 0; i--) {
        const j = Math.floor(random() * (i + 1));
        [doomed[i], doomed[j]] = [doomed[j]!, doomed[i]!];
      }
      doomed.length = Math.min(doomed.length, this.opts.vacuumBatches);
      if (this.committed.size > doomed.length) for (const n of doomed) this.committed.delete(n);
      else doomed.length = 0;
      // Mostly inside the VACUUM; sometimes while opening, after the delete, or while closing.
      const after = pick(['open', 'deleted', 'closing', ...Array<string>(6).fill('vacuuming')]);
      run = await runChild('vacuum', dir, doomed, after, aim(after), random(), after === 'vacuuming' ? 'vacuumed' : undefined);
    } else {
      await downgradeCache(dir);
      run = await runChild('upgrade', dir, [], 'upgrading', aim('upgrading'), random(), 'upgraded');
    }
    // Aimed uniformly over the phase as last seen whole (a little past its end, for its last
    // writes); a kill inside says it is longer than the kill's delay, so the aim widens until one lands after it.
    if (run.after in this.phaseMs) {
      if (run.phaseMs !== undefined) this.phaseMs[run.after] = run.phaseMs * 1.1;
      else if (run.inside) this.phaseMs[run.after] = Math.max(this.phaseMs[run.after]!, 2 * run.killDelayMs!);
    }
    if (!run.killed && run.lines.at(-1) !== 'closed')
      return {
        mode,
        run,
        check: { problems: [`the child failed: ${run.stderr}`], reopenMs: NaN, leftovers: [], walBytes: 0, fileBytes: 0, markets: 0 },
      };
    const check = await checkCache(dir, committed, batch, this.schema);
    if (mode === 'bulk') rmSync(dir, { recursive: true, force: true });
    return { mode, run, check };
  }
}
