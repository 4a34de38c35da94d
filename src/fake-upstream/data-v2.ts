/**
 * The fake upstream's Data API v2 (`/v2/positions`, `/v2/activity`, `/v2/trades`, `/v2/value`)
 * for one scripted account, in the 2026 shapes (fixtures/polymarket-2026/README.md, copied from
 * the live samples in fixtures/polymarket-2026/data-v2/): the envelope
 * `{data:[…], pagination:{limit, offset, has_more, next_cursor}}`, snake_case rows, cursor-only
 * paging (`cursor=`, opaque; `next_cursor` null on the last page), `{"data":{…}|null}` for value.
 *
 * The account holds positions in markets of the fake's catalog, drawn from the seed; each row's
 * `token_id` is the outcome id of the market's own version (v1: clobTokenIds, v2: positionIds),
 * its price the catalog's `outcomePrices`. Each position was opened by one BUY trade, which
 * `/v2/trades` and `/v2/activity` list newest first.
 */
import { createHash } from 'node:crypto';
import type { FakeCatalog } from './catalog.ts';
import { parseList } from './clob.ts';
import { mulberry32, randInt } from './prng.ts';
import type { FakeRouter, Reply } from './router.ts';

export interface FakeDataV2Options {
  /** The scripted account's proxy wallet (default: a fixed made-up address). */
  user?: string;
  seed?: number;
  /** How many positions (default 24, capped by the catalog's open two-outcome markets). */
  positions?: number;
  /** Newest trade time, epoch seconds (default 2026-09-14 12:00 UTC). */
  now?: number;
}

export const DATA_V2_DEFAULT_USER = '0x5c0ffee000000000000000000000000000d15ea5';
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 500;
const MAX_CONDITIONS = 20;

type Row = Record<string, unknown>;
type Kind = 'positions' | 'activity' | 'trades';

const reply = (status: number, value: unknown): Reply => ({ status, body: JSON.stringify(value) });
const r4 = (x: number) => Number(x.toFixed(4));

interface Script {
  positions: Row[];
  trades: Row[];
  activity: Row[];
}

export class FakeDataV2 {
  readonly user: string;
  private script: Script | undefined;

  constructor(
    private readonly catalog: FakeCatalog,
    private readonly opts: FakeDataV2Options = {},
  ) {
    this.user = (opts.user ?? DATA_V2_DEFAULT_USER).toLowerCase();
  }

  /** The account's rows, built on first use from the catalog (deterministic from the seed). */
  rows(): Script {
    if (this.script) return this.script;
    const rng = mulberry32(this.opts.seed ?? 25);
    const want = this.opts.positions ?? 24;
    const candidates = this.catalog.marketRecords().filter((rec) => {
      const m = rec.obj as Row;
      return m['closed'] !== true && parseList(m['outcomes']).length === 2 && idsOf(m).length === 2;
    });
    const picked: Row[] = [];
    const step = Math.max(1, Math.floor(candidates.length / Math.max(1, want)));
    for (let i = randInt(rng, 0, step - 1); i < candidates.length && picked.length < want; i += step)
      picked.push(candidates[i]!.obj as Row);
    let ts = this.opts.now ?? 1_789_387_200;
    const positions: Row[] = [];
    const trades: Row[] = [];
    for (const m of picked) {
      const ids = idsOf(m);
      const outcomes = parseList(m['outcomes']);
      const prices = parseList(m['outcomePrices']).map(Number);
      const k = rng() < 0.5 ? 0 : 1;
      const current = Number.isFinite(prices[k]) ? (prices[k] as number) : 0.5;
      const size = r4(randInt(rng, 5, 2000) + randInt(rng, 0, 99) / 100);
      const avg = r4(Math.min(0.99, Math.max(0.01, current + (rng() - 0.5) * 0.2)));
      const cost = r4(size * avg);
      const fees = r4(cost * 0.0165);
      const value = r4(size * current);
      const event = Array.isArray(m['events']) ? (m['events'][0] as Row | undefined) : undefined;
      const common = {
        title: String(m['question'] ?? ''),
        slug: String(m['slug'] ?? ''),
        icon: String(m['icon'] ?? ''),
      };
      ts -= randInt(rng, 600, 86_400);
      positions.push({
        proxy_wallet: this.user,
        token_id: ids[k],
        condition_id: m['conditionId'],
        current_size: size,
        avg_price: avg,
        entry_cost_usdc: cost,
        entry_fees_usdc: fees,
        total_cost_usdc: r4(cost + fees),
        current_price: current,
        current_value: value,
        total_size: size,
        realized_pnl: 0,
        unrealized_pnl: r4(value - cost),
        total_pnl: r4(value - cost),
        percent_pnl: cost > 0 ? r4(((value - cost) / cost) * 100) : 0,
        percent_realized_pnl: 0,
        status: 'OPEN',
        redeemable: false,
        mergeable: false,
        negative_risk: m['negRisk'] === true,
        archived: false,
        ...common,
        event_id: event ? String(event['id']) : '',
        event_slug: event ? String(event['slug'] ?? '') : '',
        outcome: outcomes[k],
        outcome_index: k,
        opposite_outcome: outcomes[1 - k],
        opposite_token_id: ids[1 - k],
        end_date: typeof m['endDate'] === 'string' ? m['endDate'].slice(0, 10) : '',
        last_event_at: ts,
        first_entry_at: ts,
        name: 'demo-trader',
        profile_image: '',
        verified: false,
      });
      const hash = `0x${createHash('sha256').update(`${this.user}:${ts}:${ids[k]}`).digest('hex')}`;
      trades.push({
        proxy_wallet: this.user,
        side: 'BUY',
        token_id: ids[k],
        condition_id: m['conditionId'],
        size,
        price: avg,
        timestamp: ts,
        ...common,
        event_slug: event ? String(event['slug'] ?? '') : '',
        outcome: outcomes[k],
        outcome_index: k,
        name: 'demo-trader',
        pseudonym: 'Scripted-Account',
        bio: '',
        profile_image: '',
        profile_image_optimized: '',
        transaction_hash: hash,
      });
    }
    positions.sort((a, b) => (b['current_value'] as number) - (a['current_value'] as number));
    const activity = trades.map((t) => ({
      proxy_wallet: t['proxy_wallet'],
      timestamp: t['timestamp'],
      condition_id: t['condition_id'],
      type: 'TRADE',
      size: t['size'],
      usdc_size: r4((t['size'] as number) * (t['price'] as number)),
      transaction_hash: t['transaction_hash'],
      price: t['price'],
      token_id: t['token_id'],
      side: t['side'],
      outcome_index: t['outcome_index'],
      title: t['title'],
      slug: t['slug'],
      icon: t['icon'],
      event_slug: t['event_slug'],
      outcome: t['outcome'],
      name: t['name'],
      pseudonym: t['pseudonym'],
      bio: '',
      profile_image: '',
      profile_image_optimized: '',
    }));
    this.script = { positions, trades, activity };
    return this.script;
  }

  /** Registers the four routes on the fake's router (marketdesk forwards them: contract/data-ops.ts). */
  register(router: FakeRouter): void {
    for (const kind of ['positions', 'activity', 'trades'] as const) router.add('GET', `/v2/${kind}`, (r) => this.list(kind, r.query));
    router.add('GET', '/v2/value', (r) => this.value(r.query));
  }

  value(q: URLSearchParams): Reply {
    const user = q.get('user');
    if (!user) return reply(400, { error: 'user is required' });
    if (user.toLowerCase() !== this.user) return reply(200, { data: null });
    const total = this.rows().positions.reduce((s, p) => s + (p['current_value'] as number), 0);
    return reply(200, { data: { proxy_wallet: this.user, value: r4(total) } });
  }

  list(kind: Kind, q: URLSearchParams): Reply {
    const user = q.get('user');
    if (kind !== 'trades' && !user) return reply(400, { error: 'user is required' });
    const limitRaw = q.get('limit');
    if (limitRaw !== null && !/^\d{1,6}$/.test(limitRaw)) return reply(400, { error: 'invalid limit parameter' });
    const limit = Math.min(Math.max(1, limitRaw === null ? DEFAULT_LIMIT : Number(limitRaw)), MAX_LIMIT);
    const conditions = new Set(
      ['condition', 'condition_id', 'conditionId'].flatMap((k) => q.getAll(k).flatMap((v) => v.split(','))).filter(Boolean),
    );
    if (conditions.size > MAX_CONDITIONS) return reply(400, { error: `at most ${MAX_CONDITIONS} condition ids` });
    let rows = user === null || user.toLowerCase() === this.user ? this.rows()[kind] : [];
    if (conditions.size > 0) rows = rows.filter((r) => conditions.has(r['condition_id'] as string));
    if (kind === 'positions') {
      const status = (q.get('status') ?? 'OPEN').toUpperCase();
      rows = rows.filter((r) => r['status'] === status);
    }
    let start = 0;
    const cursor = q.get('cursor');
    if (cursor !== null && cursor !== '') {
      const at = decodeCursor(cursor, kind);
      if (at === undefined) return reply(400, { error: 'invalid cursor' });
      start = at;
    }
    const data = rows.slice(start, start + limit);
    const more = start + limit < rows.length;
    return reply(200, {
      data,
      pagination: { limit, offset: 0, has_more: more, next_cursor: more ? encodeCursor(kind, start + limit, limit) : null },
    });
  }
}

/** A market's outcome ids by its own version: v2 the positionIds, v1 the clobTokenIds. */
function idsOf(m: Row): string[] {
  if (m['version'] === 'v2') return Array.isArray(m['positionIds']) ? (m['positionIds'] as string[]) : [];
  return parseList(m['clobTokenIds']);
}

const sig = (s: string) => createHash('sha256').update(`fake-data-v2:${s}`).digest('hex').slice(0, 32);

/** Opaque like the real ones: base64url of {"data":{"type","params"},"sig"} (the live cursors' outer shape). */
export function encodeCursor(kind: Kind, offset: number, limit: number): string {
  const data = { type: kind, params: { l: limit, o: offset } };
  return Buffer.from(JSON.stringify({ data, sig: sig(JSON.stringify(data)) })).toString('base64url');
}

function decodeCursor(s: string, kind: Kind): number | undefined {
  try {
    const o = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as {
      data?: { type?: unknown; params?: { o?: unknown } };
      sig?: unknown;
    };
    if (!o.data || o.data.type !== kind || o.sig !== sig(JSON.stringify(o.data))) return undefined;
    const at = o.data.params?.o;
    return typeof at === 'number' && Number.isInteger(at) && at >= 0 ? at : undefined;
  } catch {
    return undefined;
  }
}
