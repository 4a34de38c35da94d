/**
 * `marketdesk serve | sync | vacuum | demo | fake-upstream`: the headless commands (npm run serve, ...),
 * run by cli.ts, which is built to out/main/cli.js so no TypeScript runner is needed at run time.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { startService } from '../http/server.ts';
import { API_TOKEN_HEADER } from '../contract/local-api-ops.ts';
import type { SiteMap } from '../store/catalog-reader.ts';
import { CACHE_FILE, CatalogStore } from '../store/catalog-store.ts';
import type { Logger } from '../logger.ts';
import { UnsavedChangesError } from '../store/storage-state.ts';
import { isProfileName, resolveUrls, type ProfileName } from '../upstream/profiles.ts';
import { credentialsFromEnv, readCredentialsFile } from '../auth/credentials.ts';
import { DEFAULT_LIMITS, parseLimitsTable, type LimitsTable } from '../limits/table.ts';
import { parseAllowedOrigins } from '../contract/origins.ts';
import { DEFAULT_BASE_PORT, DEFAULT_CLOB_PORT } from '../contract/ports.ts';

const USAGE = {
  serve:
    'usage: npm run serve -- [--data-dir DIR] [--host H] [--base-port N] [--clob-port N] [--profile polymarket|kuest] ' +
    '[--gamma-url URL] [--clob-url URL] [--data-url URL] [--clob-ws-url URL] [--offline] [--sync-interval SECONDS] ' +
    '[--horizon-days N|all] [--sites FILE] [--credentials FILE] [--orders-interval SECONDS] [--leaderboard-ttl SECONDS] ' +
    '[--limits FILE] [--no-limits] [--allow-origin URL]... [--cache-mib N]',
  sync:
    'usage: npm run sync -- [--data-dir DIR] [--profile polymarket|kuest] [--gamma-url URL] [--clob-url URL] [--data-url URL] ' +
    '[--horizon-days N|all] [--limits FILE] [--timeout SECONDS] [--cache-mib N] [--verbose]',
  vacuum: 'usage: node out/main/cli.js vacuum [--data-dir DIR] [--horizon-days N] [--cache-mib N]',
};

const upstreamFlags = {
  'data-dir': { type: 'string' },
  profile: { type: 'string' },
  'gamma-url': { type: 'string' },
  'clob-url': { type: 'string' },
  'data-url': { type: 'string' },
  'horizon-days': { type: 'string' },
  // SQLite's page cache in MiB; the rest of the file is read through the OS's page cache.
  'cache-mib': { type: 'string' },
  help: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options'];

const serveFlags = {
  ...upstreamFlags,
  host: { type: 'string' },
  'base-port': { type: 'string' },
  'clob-port': { type: 'string' },
  offline: { type: 'boolean' },
  'sync-interval': { type: 'string' },
  sites: { type: 'string' },
  credentials: { type: 'string' },
  'orders-interval': { type: 'string' },
  'leaderboard-ttl': { type: 'string' },
  limits: { type: 'string' },
  'no-limits': { type: 'boolean' },
  'allow-origin': { type: 'string', multiple: true },
  // The CLOB's WebSocket host (market channel at URL/ws/market): its own host at Polymarket.
  'clob-ws-url': { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

class UsageError extends Error {}

/** Exit code when the last save failed and changes were lost (sysexits' EX_IOERR). */
const EXIT_UNSAVED = 74;

export const consoleLogger: Logger = {
  info: (m) => process.stderr.write(`${new Date().toISOString()} ${m}\n`),
  warn: (m) => process.stderr.write(`${new Date().toISOString()} warning: ${m}\n`),
};

/** The platform's app-data folder: ~/.config/marketdesk on Linux. */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (process.platform === 'win32') return path.join(process.env['APPDATA'] ?? path.join(home, 'AppData', 'Roaming'), 'marketdesk');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'marketdesk');
  return path.join(process.env['XDG_CONFIG_HOME'] || path.join(home, '.config'), 'marketdesk');
}

function intFlag(v: string | undefined, name: string, min: number, max: number): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new UsageError(`--${name} must be an integer between ${min} and ${max}`);
  return Number(v);
}

/** `--horizon-days N|all`: how long closed items are kept; `all` keeps every one and walks the closed history. */
function horizonFlag(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (v === 'all') return Infinity;
  if (!/^\d+$/.test(v) || Number(v) > 36500) throw new UsageError('--horizon-days must be a number of days (0 to 36500) or all');
  return Number(v) * 86_400_000;
}

function upstreamConfig(v: { profile?: string; 'gamma-url'?: string; 'clob-url'?: string; 'data-url'?: string }) {
  const profile = v.profile ?? 'polymarket';
  if (!isProfileName(profile)) throw new UsageError(`--profile must be polymarket or kuest`);
  for (const k of ['gamma-url', 'clob-url', 'data-url'] as const) {
    const u = v[k];
    if (u !== undefined && !/^https?:\/\/./.test(u)) throw new UsageError(`--${k} must be an http(s) URL`);
  }
  const urls = resolveUrls(profile as ProfileName, {
    ...(v['gamma-url'] ? { gamma: v['gamma-url'] } : {}),
    ...(v['clob-url'] ? { clob: v['clob-url'] } : {}),
    ...(v['data-url'] ? { data: v['data-url'] } : {}),
  });
  return { profile, urls };
}

/** `--limits FILE`: a JSON table replacing section 8's (src/limits/table.ts). */
function readLimits(file: string | undefined): LimitsTable {
  if (!file) return DEFAULT_LIMITS;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new UsageError(`--limits: cannot read ${file} as JSON (${(e as Error).message})`);
  }
  try {
    return parseLimitsTable(parsed);
  } catch (e) {
    throw new UsageError(`--limits: ${(e as Error).message}`);
  }
}

/** `--allow-origin URL` (repeatable): pages of these origins may call the faces from a browser. */
function allowOrigins(list: string[]): string[] {
  try {
    return parseAllowedOrigins(list);
  } catch (e) {
    throw new UsageError(`--allow-origin: ${(e as Error).message}`);
  }
}

function readSites(file: string | undefined): SiteMap {
  if (!file) return {};
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError('--sites must be a JSON object of site -> [wallet, ...]');
  for (const [site, wallets] of Object.entries(parsed)) {
    if (!Array.isArray(wallets) || !wallets.every((w) => typeof w === 'string')) {
      throw new UsageError(`--sites: "${site}" must map to an array of wallet addresses`);
    }
  }
  return parsed as SiteMap;
}

async function serve(argv: string[]): Promise<void> {
  const { values: v } = parseArgs({ args: argv, options: serveFlags, strict: true, allowPositionals: false });
  if (v.help) return void console.log(USAGE.serve);
  const { profile, urls } = upstreamConfig(v);
  const horizonMs = horizonFlag(v['horizon-days']);
  const interval = intFlag(v['sync-interval'], 'sync-interval', 1, 86_400);
  const ordersInterval = intFlag(v['orders-interval'], 'orders-interval', 1, 86_400);
  const leaderboardTtl = intFlag(v['leaderboard-ttl'], 'leaderboard-ttl', 1, 86_400);
  // The file wins over the MARKETDESK_* variables; either is refused with a one-line reason.
  const credentials = v.credentials !== undefined ? readCredentialsFile(v.credentials) : credentialsFromEnv();
  const dataDir = v['data-dir'] ?? defaultDataDir();
  const cacheMiB = intFlag(v['cache-mib'], 'cache-mib', 1, 16_384);
  const allowedOrigins = allowOrigins(v['allow-origin'] ?? []);
  const clobWsUrl = v['clob-ws-url'];
  if (clobWsUrl !== undefined && !/^wss?:\/\/./.test(clobWsUrl)) throw new UsageError('--clob-ws-url must be a ws(s) URL');
  const log = consoleLogger;
  const service = await startService({
    dataDir,
    host: v.host ?? '127.0.0.1',
    allowedOrigins,
    basePort: intFlag(v['base-port'], 'base-port', 0, 65535) ?? DEFAULT_BASE_PORT,
    clobPort: intFlag(v['clob-port'], 'clob-port', 0, 65535) ?? DEFAULT_CLOB_PORT,
    profile,
    urls,
    ...(clobWsUrl !== undefined ? { clobWsUrl } : {}),
    offline: !!v.offline,
    autoSync: !v.offline,
    ...(interval !== undefined ? { syncIntervalMs: interval * 1000 } : {}),
    ...(horizonMs !== undefined ? { horizonMs } : {}),
    sites: readSites(v.sites),
    ...(credentials ? { credentials } : {}),
    ...(ordersInterval !== undefined ? { ordersIntervalMs: ordersInterval * 1000 } : {}),
    ...(leaderboardTtl !== undefined ? { leaderboardTtlMs: leaderboardTtl * 1000 } : {}),
    limits: { table: readLimits(v.limits), inbound: !v['no-limits'] },
    ...(cacheMiB !== undefined ? { cacheMiB } : {}),
    log,
  });
  const counts = service.store.reader.counts();
  console.log(
    `marketdesk ${v.offline ? 'serving its cache offline' : `syncing from ${urls.gamma}`}; ` +
      `${counts.markets} markets, ${counts.events} events cached in ${dataDir}`,
  );
  console.log(`base: ${service.baseUrl}`);
  console.log(`clob: ${service.clobUrl}`);
  // Scripts subscribe to live books here, in Polymarket's protocol (docs/api-guide.md).
  const live = service.live.url;
  const upstreamWs = live ? `upstream ${live}` : 'offline: no upstream socket';
  console.log(`market channel for scripts: ${service.clobUrl?.replace(/^http/, 'ws')}/ws/market (${upstreamWs})`);
  if (v['no-limits']) console.log('inbound rate limits are off (--no-limits)');
  if (allowedOrigins.length) console.log(`pages allowed to call the API: ${allowedOrigins.join(', ')}`);
  console.log(`web UI: ${service.baseUrl}/app/`);
  // The path, never the token: terminal output ends up in logs.
  const tokenFile = service.apiToken.file;
  console.log(
    tokenFile
      ? `writes over HTTP carry the API token in ${tokenFile} (header ${API_TOKEN_HEADER})`
      : 'writes over HTTP: the data dir cannot hold the API token; only the web UI can write until the next start',
  );
  let stopping = false;
  const stop = (sig: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${sig}: persisting the cache and stopping`);
    service.close().then(
      () => process.exit(0),
      (e: unknown) => {
        // A failed final save is data loss: said in one line, with a code of its own (docs/cli.md).
        if (e instanceof UnsavedChangesError) {
          process.stderr.write(`marketdesk: ${e.message}\n`);
          process.exit(EXIT_UNSAVED);
        }
        log.warn(`shutdown failed: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

async function syncOnce(argv: string[]): Promise<void> {
  const { values: v } = parseArgs({
    args: argv,
    options: { ...upstreamFlags, limits: { type: 'string' }, timeout: { type: 'string' }, verbose: { type: 'boolean' } },
    strict: true,
    allowPositionals: false,
  });
  if (v.help) return void console.log(USAGE.sync);
  const { profile, urls } = upstreamConfig(v);
  const horizonMs = horizonFlag(v['horizon-days']);
  // The whole run's bound: 429s and failed pages are waited out and resumed until then.
  const timeoutS = intFlag(v.timeout, 'timeout', 1, 604_800) ?? 3600;
  const dataDir = v['data-dir'] ?? defaultDataDir();
  const cacheMiB = intFlag(v['cache-mib'], 'cache-mib', 1, 16_384);
  // Retries as `serve` does: a 429 with Retry-After costs no retry, failures get 6 with backoff.
  // Quiet for scripts unless asked: --verbose logs the sync's warnings and the bulk load's step times to stderr.
  const service = await startService({
    dataDir,
    ...(v.verbose ? { log: consoleLogger } : {}),
    http: false,
    profile,
    urls,
    // The outbound budgets (`--limits FILE` replaces section 8's table).
    limits: { table: readLimits(v.limits), inbound: false },
    ...(horizonMs !== undefined ? { horizonMs } : {}),
    ...(cacheMiB !== undefined ? { cacheMiB } : {}),
  });
  const t0 = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`no complete sync within --timeout ${timeoutS} s`)), timeoutS * 1000);
  timer.unref();
  try {
    await service.sync!.syncNow('full', { deadline: deadline.signal });
    // `--horizon-days all`: then the closed history, from where an earlier run stopped.
    await service.sync!.syncHistory({ deadline: deadline.signal });
  } catch (e) {
    const c = service.store.reader.counts();
    await service.close();
    const kept = deadline.signal.aborted ? `; the cache keeps the ${c.markets} markets, ${c.events} events synced so far` : '';
    process.stderr.write(`marketdesk sync failed: ${(e as Error).message}${kept}\n`);
    process.exit(1);
  } finally {
    clearTimeout(timer);
  }
  const counts = service.store.reader.counts();
  await service.close();
  const peak = process.resourceUsage().maxRSS / 1024;
  console.log(
    `synced ${counts.markets} markets, ${counts.events} events, ${counts.tags} tags from ${urls.gamma} ` +
      `in ${((performance.now() - t0) / 1000).toFixed(1)} s into ${dataDir} (peak RSS ${peak.toFixed(0)} MiB)`,
  );
}

/**
 * `vacuum`: compacts catalog.sqlite in place (store/vacuum.ts), so the space that prunes and
 * removals freed goes back to the disk; `--horizon-days N` prunes closed items first, as a sync
 * does. It takes the cache's lock as sync does, so it is refused while a serve or sync has the file.
 */
async function vacuum(argv: string[]): Promise<void> {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      'data-dir': { type: 'string' },
      'horizon-days': { type: 'string' },
      'cache-mib': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (v.help) return void console.log(USAGE.vacuum);
  const horizonMs = horizonFlag(v['horizon-days']);
  const cacheMiB = intFlag(v['cache-mib'], 'cache-mib', 1, 16_384);
  const dataDir = v['data-dir'] ?? defaultDataDir();
  const file = path.join(dataDir, CACHE_FILE);
  if (!existsSync(file)) throw new Error(`there is no cache at ${file}: nothing to vacuum`);
  let store: CatalogStore;
  try {
    store = await CatalogStore.open({ dataDir, log: consoleLogger, ...(cacheMiB !== undefined ? { cacheMiB } : {}) });
  } catch (e) {
    throw new Error(`vacuum refused: ${(e as Error).message}`);
  }
  let r: ReturnType<CatalogStore['vacuum']>;
  try {
    if (horizonMs !== undefined && horizonMs !== Infinity) {
      const p = store.prune(Date.now() - horizonMs);
      console.log(`pruned ${p.markets} markets, ${p.events} events closed more than ${v['horizon-days']} days ago`);
    }
    r = store.vacuum();
  } finally {
    await store.close();
  }
  const mib = (b: number) => (b / 2 ** 20).toFixed(1);
  console.log(
    `vacuumed ${file}: ${r.bytesBefore} -> ${r.bytesAfter} bytes (${mib(r.bytesBefore)} -> ${mib(r.bytesAfter)} MiB, ` +
      `${mib(r.bytesBefore - r.bytesAfter)} MiB given back) in ${(r.ms / 1000).toFixed(1)} s`,
  );
}

export async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case 'serve':
        return await serve(rest);
      case 'sync':
        return await syncOnce(rest);
      case 'vacuum':
        return await vacuum(rest);
      case 'demo': {
        const { runDemo } = await import('./demo.ts');
        return await runDemo(rest, consoleLogger);
      }
      case 'fake-upstream': {
        const { runFakeUpstream } = await import('../fake-upstream/main.ts');
        return await runFakeUpstream(rest);
      }
      default:
        throw new UsageError(`usage: marketdesk serve|sync|vacuum|demo|fake-upstream [flags]  (try --help after a command)`);
    }
  } catch (e) {
    const usage = cmd === 'serve' || cmd === 'sync' || cmd === 'vacuum' ? `\n${USAGE[cmd]}` : '';
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`marketdesk: ${(e as Error).message}${usage}\n`);
      process.exit(2);
    }
    process.stderr.write(`marketdesk: ${(e as Error).message}\n`);
    process.exit(e instanceof UnsavedChangesError ? EXIT_UNSAVED : 1);
  }
}
