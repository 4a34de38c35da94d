/**
 * Makes a catalog today's (issue 25): every market and event carries `version`, about a third of
 * the markets become Protocol V2 (`version: "v2"`, `positionIds`, `clobTokenIds: null`), about a
 * third of the remaining v1 markets also carry `positionIds` (CTF markets with Combos, for which
 * the CLOB has no book), and the other 2026 fields seen live are filled in where a market lacks
 * them. Sources and dates: fixtures/polymarket-2026/README.md.
 *
 * Which markets change is decided by a hash of (seed, market id), so a recorded catalog and a
 * synthetic one turn out the same at every load; recorded fields other than `clobTokenIds` of a
 * v2 market are kept (the 2026 fields are only added when absent).
 *
 * Position ids follow Protocol V2: id = (conditionId << 8) | outcomeIndex over a bytes31 condition
 * id. No v2 market was ever captured, so the bytes31 id is made the way live v1 markets' ids are
 * (inferred from market 559651, 2026-08-16): module 0x01, then the last 16 bytes of the CTF
 * condition id, then zeros.
 */
import { createHash } from 'node:crypto';
import type { CatalogParts } from './catalog.ts';

export type ProtocolVersion = 'v1' | 'v2';

/** What the conversion retired: a v2 market's former CTF token ids (the CLOB has no book for them). */
export interface ProtocolIds {
  /** token id -> market id, of the `clobTokenIds` a market had before it became v2. */
  retired: Map<string, string>;
}

type Obj = Record<string, unknown>;

/** 0..1 from (seed, salt, id): which markets change, stable across loads. */
function draw(seed: number, salt: string, id: string): number {
  return createHash('sha256').update(`${seed}:${salt}:${id}`).digest().readUInt32LE(0) / 2 ** 32;
}

/** The bytes31 Protocol V2 condition id of a market (see the header), as 0x + 62 hex. */
export function v2ConditionId(conditionId: string, marketId: string): string {
  const hex = /^0x[0-9a-fA-F]{32,}$/.test(conditionId)
    ? conditionId.slice(-32).toLowerCase()
    : createHash('sha256').update(`condition:${marketId}`).digest('hex').slice(0, 32);
  return `0x01${hex}${'0'.repeat(28)}`;
}

/** Position ids of a market's outcomes: (bytes31 condition id << 8) | outcome index, as decimal strings. */
export function positionIdsOf(conditionId: string, marketId: string, outcomes: number): string[] {
  const base = BigInt(v2ConditionId(conditionId, marketId)) << 8n;
  return Array.from({ length: outcomes }, (_, i) => (base | BigInt(i)).toString());
}

function outcomeCount(m: Obj): number {
  try {
    const a: unknown = typeof m['outcomes'] === 'string' ? JSON.parse(m['outcomes']) : m['outcomes'];
    return Array.isArray(a) && a.length > 0 ? a.length : 2;
  } catch {
    return 2;
  }
}

/** The version a market gets under `seed`: about a third v2. */
export function versionOf(seed: number, marketId: string): ProtocolVersion {
  return draw(seed, 'version', marketId) < 1 / 3 ? 'v2' : 'v1';
}

const FEE_SCHEDULE = { exponent: 1, rate: 0.04, takerOnly: true, rebateRate: 0.25 };
const COMBO_STATUS = ['pending', 'enabled', 'disabled'] as const;

/** A copy of market `m` in its 2026 shape (see the header); `ids` collects retired token ids. */
export function modernizeMarket(m: Obj, seed: number, ids: ProtocolIds): Obj {
  const id = String(m['id']);
  const out: Obj = { ...m };
  const recordedVersion = m['version'];
  const version: ProtocolVersion = recordedVersion === 'v1' || recordedVersion === 'v2' ? recordedVersion : versionOf(seed, id);
  const cid = typeof m['conditionId'] === 'string' ? m['conditionId'] : '';
  if (version === 'v2') {
    if (!Array.isArray(m['positionIds'])) out['positionIds'] = positionIdsOf(cid, id, outcomeCount(m));
    if (typeof m['clobTokenIds'] === 'string') {
      try {
        const old: unknown = JSON.parse(m['clobTokenIds']);
        if (Array.isArray(old)) for (const t of old) if (typeof t === 'string') ids.retired.set(t, id);
      } catch {
        // A malformed recording retires nothing.
      }
    }
    out['clobTokenIds'] = null;
  } else if (!('positionIds' in m) && draw(seed, 'combos', id) < 1 / 3) {
    out['positionIds'] = positionIdsOf(cid, id, outcomeCount(m));
  }
  const r = draw(seed, 'fields', id);
  const add = (k: string, v: unknown) => {
    if (!(k in out)) out[k] = v;
  };
  add('comboStatus', out['positionIds'] ? (version === 'v2' ? 'enabled' : COMBO_STATUS[Math.floor(r * 2)]) : 'disabled');
  add('rfqEnabled', r < 0.2);
  add('holdingRewardsEnabled', r < 0.5);
  add('feesEnabled', r < 0.7);
  if (out['feesEnabled'] === true) {
    add('feeType', 'politics_fees');
    add('feeSchedule', FEE_SCHEDULE);
  }
  out['version'] = version;
  if (Array.isArray(m['events'])) out['events'] = m['events'].map((e) => modernizeEvent(e as Obj, seed, ids, false));
  return out;
}

/** A copy of event `e` with `eventMetadata` and `version` (and its markets modernized). */
export function modernizeEvent(e: Obj, seed: number, ids: ProtocolIds, withMarkets = true): Obj {
  const out: Obj = { ...e };
  if (withMarkets && Array.isArray(e['markets'])) out['markets'] = e['markets'].map((m) => modernizeMarket(m as Obj, seed, ids));
  if (!('eventMetadata' in out)) out['eventMetadata'] = { context_requires_regen: draw(seed, 'regen', String(e['id'])) < 0.25 };
  // No v2 event was captured: an event is v2 when all its markets are (an assumption), else v1 as seen live.
  const ms = out['markets'];
  const allV2 = Array.isArray(ms) && ms.length > 0 && ms.every((m) => (m as Obj)['version'] === 'v2');
  if (!('version' in out)) out['version'] = allV2 ? 'v2' : 'v1';
  return out;
}

/** `parts` in their 2026 shape, and the retired token ids. Inputs are not modified. */
export function modernizeParts(parts: CatalogParts[], seed: number): { parts: CatalogParts[]; ids: ProtocolIds } {
  const ids: ProtocolIds = { retired: new Map() };
  const out = parts.map((p) => {
    const next: CatalogParts = { ...p };
    if (p.markets) next.markets = p.markets.map((m) => modernizeMarket(m as Obj, seed, ids)) as CatalogParts['markets'];
    if (p.events) next.events = p.events.map((e) => modernizeEvent(e as Obj, seed, ids)) as CatalogParts['events'];
    if (p.series)
      next.series = p.series.map((s) => {
        const ev = (s as Obj)['events'];
        return Array.isArray(ev) ? { ...s, events: ev.map((e) => modernizeEvent(e as Obj, seed, ids)) } : s;
      }) as CatalogParts['series'];
    return next;
  });
  return { parts: out, ids };
}
