/**
 * The fake upstream's Data API `GET /v1/leaderboard` (docs/upstream/clob-data-limits.md §3): a bare
 * array of camelCase entries with string ranks, `limit` 1..50 and `offset` 0..1000, bad values
 * answered `{"error":"invalid <param> parameter"}`, unknown parameters ignored (as Polymarket's
 * is believed to). Boards are deterministic for every category, period and order, and differ
 * in length: some are deeper than the 1,050 entries a client can page to, some are short.
 */
import { mulberry32, randHex, randInt, type Rng } from './prng.ts';
import type { LeaderboardEntry } from '../contract/leaderboard-ops.ts';

export const FAKE_CATEGORIES = [
  'OVERALL',
  'POLITICS',
  'SPORTS',
  'ESPORTS',
  'CRYPTO',
  'CULTURE',
  'MENTIONS',
  'WEATHER',
  'ECONOMICS',
  'TECH',
  'FINANCE',
] as const;
export const FAKE_PERIODS = ['DAY', 'WEEK', 'MONTH', 'ALL'] as const;
export const FAKE_ORDERS = ['PNL', 'VOL'] as const;

/** Board length of each category at period ALL; shorter periods have fewer traders. */
const DEPTH: Record<(typeof FAKE_CATEGORIES)[number], number> = {
  OVERALL: 2000,
  POLITICS: 1400,
  SPORTS: 1250,
  ESPORTS: 60,
  CRYPTO: 900,
  CULTURE: 260,
  MENTIONS: 37,
  WEATHER: 12,
  ECONOMICS: 75,
  TECH: 150,
  FINANCE: 320,
};
const PERIOD_SHARE: Record<(typeof FAKE_PERIODS)[number], number> = { DAY: 0.6, WEEK: 0.75, MONTH: 0.9, ALL: 1 };

/** The Data API's row is the spec's entry, field for field. */
export type RawLeaderboardEntry = LeaderboardEntry;

interface Trader {
  wallet: string;
  name: string;
  x: string | null;
  badge: boolean | null;
  image: string;
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'to', 'ze', 'vu', 'shi', 'ne', 'po', 'qu', 'da', 'fi', 'gor', 'bex'];

/** An address with mixed letter case, as checksummed ones look (the case itself is not a checksum). */
function wallet(rng: Rng): string {
  const hex = randHex(rng, 40);
  let out = '0x';
  for (const ch of hex) out += /[a-f]/.test(ch) && rng() < 0.5 ? ch.toUpperCase() : ch;
  return out;
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export interface FakeLeaderboardOptions {
  seed?: number;
  /** Size of the trader pool boards draw from (default 2,500). */
  traders?: number;
}

export class FakeLeaderboard {
  private readonly traders: Trader[] = [];
  private readonly boards = new Map<string, RawLeaderboardEntry[]>();
  private readonly seed: number;

  constructor(opts: FakeLeaderboardOptions = {}) {
    this.seed = opts.seed ?? 11;
    const rng = mulberry32(this.seed);
    for (let i = 0; i < (opts.traders ?? 2500); i++) {
      const parts = randInt(rng, 2, 3);
      let name = '';
      for (let k = 0; k < parts; k++) name += SYLLABLES[randInt(rng, 0, SYLLABLES.length - 1)];
      name += String(i);
      this.traders.push({
        wallet: wallet(rng),
        name,
        x: rng() < 0.3 ? name.toLowerCase() : null,
        badge: rng() < 0.1 ? true : rng() < 0.8 ? false : null,
        image: rng() < 0.7 ? `https://example.invalid/profile/${i}.png` : '',
      });
    }
  }

  /** The whole board, rank 1 first. */
  board(category: string, period: string, orderBy: string): RawLeaderboardEntry[] {
    const key = `${category}/${period}/${orderBy}`;
    let b = this.boards.get(key);
    if (b) return b;
    const depth = Math.min(
      this.traders.length,
      Math.round((DEPTH[category as keyof typeof DEPTH] ?? 0) * (PERIOD_SHARE[period as keyof typeof PERIOD_SHARE] ?? 1)),
    );
    // The same (category, period) ranks the same traders by PNL or by VOL.
    const rng = mulberry32(this.seed ^ hash(`${category}/${period}`));
    const pool = this.traders
      .map((t) => ({ t, r: rng() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, depth);
    const rows = pool.map(({ t }) => {
      const vol = Math.round(Math.exp(6 + rng() * 10) * 100) / 100;
      return { t, vol, pnl: Math.round(vol * (rng() * 0.6 - 0.2) * 100) / 100 };
    });
    rows.sort((a, b) => (orderBy === 'VOL' ? b.vol - a.vol : b.pnl - a.pnl) || a.t.wallet.localeCompare(b.t.wallet));
    b = rows.map(({ t, vol, pnl }, i) => ({
      rank: String(i + 1),
      proxyWallet: t.wallet,
      userName: t.name,
      vol,
      pnl,
      profileImage: t.image,
      xUsername: t.x,
      verifiedBadge: t.badge,
    }));
    this.boards.set(key, b);
    return b;
  }

  /** `GET /v1/leaderboard`. */
  route(q: URLSearchParams): { status: number; body: string } {
    const bad = (param: string) => ({ status: 400, body: JSON.stringify({ error: `invalid ${param} parameter` }) });
    const oneOf = (name: string, values: readonly string[], def: string): string | null => {
      const v = q.get(name) ?? def;
      return values.includes(v) ? v : null;
    };
    const category = oneOf('category', FAKE_CATEGORIES, 'OVERALL');
    if (category === null) return bad('category');
    const period = oneOf('timePeriod', FAKE_PERIODS, 'DAY');
    if (period === null) return bad('timePeriod');
    const orderBy = oneOf('orderBy', FAKE_ORDERS, 'PNL');
    if (orderBy === null) return bad('orderBy');
    const int = (name: string, min: number, max: number, def: number): number | null => {
      const v = q.get(name);
      if (v === null) return def;
      return /^\d{1,6}$/.test(v) && Number(v) >= min && Number(v) <= max ? Number(v) : null;
    };
    const limit = int('limit', 1, 50, 25);
    if (limit === null) return bad('limit');
    const offset = int('offset', 0, 1000, 0);
    if (offset === null) return bad('offset');
    const user = q.get('user')?.toLowerCase();
    const userName = q.get('userName');
    const rows = this.board(category, period, orderBy).filter(
      (e) => (user === undefined || e.proxyWallet.toLowerCase() === user) && (userName === null || e.userName === userName),
    );
    return { status: 200, body: JSON.stringify(rows.slice(offset, offset + limit)) };
  }
}
