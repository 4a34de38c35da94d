/**
 * `fake-upstream --port N [--fixtures DIR | --synthetic COUNT [--seed S]] [--host H] [--no-keyset]
 * [--credentials FILE [--orders N]] [--limits spec|off] [--ws-rate N] [--ws-seed S]`: serves a Gamma
 * (and CLOB orders, Data API leaderboard) stand-in until SIGINT/SIGTERM, enforcing section 8's rate
 * limits unless `--limits off`, with the CLOB market channel at `ws://HOST:PORT/ws/market` (market-ws.ts)
 * ticking `--ws-rate` steps a second (default 0: only on demand, `POST /_fake/market-ws`) from a seed
 * it prints (`--ws-seed`, else a random one).
 */
import { randomInt } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createSyntheticCatalog, type FakeCatalog } from './catalog.ts';
import { FIXTURES_DIR, loadFixtureCatalog } from './fixture-catalog.ts';
import { startFakeUpstream } from './server.ts';
import { readCredentialsFile } from '../auth/credentials.ts';

export const USAGE =
  'usage: fake-upstream --port N [--fixtures DIR | --synthetic COUNT [--seed S]] [--host H] [--no-keyset] [--log] ' +
  '[--credentials FILE [--orders N]] [--limits spec|off] [--ws-rate N] [--ws-seed S]';

export interface FakeUpstreamArgs {
  port: number;
  host: string;
  fixtures?: string;
  synthetic?: number;
  seed?: number;
  keyset: boolean;
  log: boolean;
  /** JSON credentials file (0600) the fake CLOB accepts; without it `/data/orders` is a 404. */
  credentials?: string;
  orders?: number;
  /** Section 8's windows enforced with 429s ('spec', the default) or not ('off'). */
  limits?: 'spec' | 'off';
  /** Market channel steps per second (default 0: only on demand). */
  wsRate?: number;
  /** Seed of the market channel's walk (default: a random one, printed). */
  wsSeed?: number;
}

/** Parses the flags; a string is the reason they are unusable. */
export function parseFakeUpstreamArgs(argv: readonly string[]): FakeUpstreamArgs | string {
  const out: FakeUpstreamArgs = { port: 0, host: '127.0.0.1', keyset: true, log: false };
  const int = (v: string | undefined, name: string): number | string =>
    v !== undefined && /^\d+$/.test(v) ? Number(v) : `${name} needs a non-negative integer`;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const eq = flag.indexOf('=');
    const [name, inline] = flag.startsWith('--') && eq > 0 ? [flag.slice(0, eq), flag.slice(eq + 1)] : [flag, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--port': {
        const v = int(value(), '--port');
        if (typeof v === 'string') return v;
        if (v > 65535) return '--port must be at most 65535';
        out.port = v;
        break;
      }
      case '--host': {
        const v = value();
        if (!v) return '--host needs a value';
        out.host = v;
        break;
      }
      case '--fixtures': {
        const v = value();
        if (!v) return '--fixtures needs a directory';
        out.fixtures = v;
        break;
      }
      case '--synthetic': {
        const v = int(value(), '--synthetic');
        if (typeof v === 'string') return v;
        out.synthetic = v;
        break;
      }
      case '--seed': {
        const v = int(value(), '--seed');
        if (typeof v === 'string') return v;
        out.seed = v;
        break;
      }
      case '--credentials': {
        const v = value();
        if (!v) return '--credentials needs a file';
        out.credentials = v;
        break;
      }
      case '--orders': {
        const v = int(value(), '--orders');
        if (typeof v === 'string') return v;
        out.orders = v;
        break;
      }
      case '--limits': {
        const v = value();
        if (v !== 'spec' && v !== 'off') return '--limits must be spec or off';
        out.limits = v;
        break;
      }
      case '--ws-rate': {
        const v = value();
        if (v === undefined || !/^\d+(\.\d+)?$/.test(v)) return '--ws-rate needs a number of messages a second (0: only on demand)';
        out.wsRate = Number(v);
        break;
      }
      case '--ws-seed': {
        const v = int(value(), '--ws-seed');
        if (typeof v === 'string') return v;
        if (v >= 2 ** 32) return '--ws-seed must be below 2^32';
        out.wsSeed = v;
        break;
      }
      case '--no-keyset':
        out.keyset = false;
        break;
      case '--log':
        out.log = true;
        break;
      default:
        return `unknown argument: ${flag}`;
    }
  }
  if (out.fixtures !== undefined && out.synthetic !== undefined) return 'give one of --fixtures DIR or --synthetic COUNT, not both';
  // Neither: the recorded responses shipped in the repo.
  if (out.synthetic === undefined) out.fixtures ??= FIXTURES_DIR;
  if (out.seed !== undefined && out.synthetic === undefined) return '--seed only applies to --synthetic';
  if (out.orders !== undefined && out.credentials === undefined) return '--orders only applies with --credentials';
  return out;
}

export interface RunIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** Stops the server like a signal would (tests); SIGINT/SIGTERM always do. */
  signal?: AbortSignal;
}

/** The CLI: runs until SIGINT/SIGTERM, then exits the process (0; 2 on bad flags; 1 if it cannot start). */
export async function runFakeUpstream(argv: readonly string[], io: RunIo = {}): Promise<void> {
  const code = await serveFakeUpstream(argv, io);
  process.exit(code);
}

/** runFakeUpstream without the process exit: resolves with the exit code (for tests and embedding). */
export async function serveFakeUpstream(argv: readonly string[], io: RunIo = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const err = io.err ?? ((l: string) => process.stderr.write(`${l}\n`));
  const args = parseFakeUpstreamArgs(argv);
  if (typeof args === 'string') {
    err(`fake-upstream: ${args}`);
    err(USAGE);
    return 2;
  }
  let catalog: FakeCatalog;
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  const wsSeed = args.wsSeed ?? randomInt(2 ** 32);
  try {
    catalog =
      args.fixtures !== undefined
        ? await loadFixtureCatalog(args.fixtures)
        : createSyntheticCatalog({ markets: args.synthetic ?? 0, seed: args.seed });
    const clob =
      args.credentials !== undefined
        ? { credentials: readCredentialsFile(args.credentials), ...(args.orders !== undefined ? { generate: { count: args.orders } } : {}) }
        : undefined;
    upstream = await startFakeUpstream({
      catalog,
      port: args.port,
      host: args.host,
      keyset: args.keyset,
      log: args.log,
      ...(clob ? { clob } : {}),
      // The Data API v2 account's positions follow the catalog's seed.
      ...(args.seed !== undefined ? { dataV2: { seed: args.seed } } : {}),
      limits: args.limits ?? 'spec',
      // Pictures from this server: icons show with no internet.
      images: 'local',
      marketWs: { seed: wsSeed, rate: args.wsRate ?? 0 },
    });
  } catch (e) {
    err(`fake-upstream: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  const c = catalog.counts;
  out(
    `fake-upstream listening on ${upstream.url} ` +
      `(${c.markets} markets, ${c.events} events, ${c.tags} tags${upstream.clob ? `, ${upstream.clob.orders.length} orders` : ''})`,
  );
  const ws = upstream.marketWs;
  out(`clob ws: ${ws.url} (market channel ${ws.path}, seed ${ws.seed}, ${ws.rate} msg/s)`);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    if (io.signal?.aborted) stop();
    else io.signal?.addEventListener('abort', stop);
  });
  await upstream.close();
  return 0;
}

// Direct run (`tsx src/fake-upstream/main.ts ...`); src/cli.ts calls runFakeUpstream itself.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void runFakeUpstream(process.argv.slice(2));
}
