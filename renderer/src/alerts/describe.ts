/**
 * How alerts read on screen: kind names, what a rule watches, a fired alert's before → after,
 * and the dialog's form turned into `alerts.create` parameters (cents and points to prices).
 */
import type { AlertRule, FiredAlert } from '../../../src/contract/alerts-ops.ts';
import type { AlertKind, CrossDirection } from '../../../src/contract/enums.ts';
import type { InputOf } from '../api.ts';
import { quote } from '../../../src/contract/quote.ts';
import { parseAmount } from '../amount.ts';
import { fmtCents } from '../chance.ts';

export type { AlertKind, AlertRule, CrossDirection, FiredAlert };

export const KIND_LABEL: Record<AlertKind, string> = {
  price_cross: 'Price crosses',
  price_move: 'Price moves',
  new_match: 'New matches',
  rule_edit: 'Rules edited',
  ends_soon: 'Ends soon',
  order_done: 'Order done',
};

/**
 * What a dialog is about: a market (with the outcome a price alert watches, its first, and that
 * outcome's current price), an event, a search text or a saved screen.
 */
export type AlertSubject =
  | { kind: 'market'; id: string; title: string; price: number | undefined; outcome?: string | undefined }
  | { kind: 'event'; id: string; title: string }
  | { kind: 'search'; q: string }
  | { kind: 'screen'; id: string; name: string };

/** The rule kinds each subject offers, in the dialog's order. */
export function kindsFor(subject: AlertSubject): AlertKind[] {
  if (subject.kind === 'market') return ['price_cross', 'price_move', 'ends_soon', 'rule_edit'];
  if (subject.kind === 'event') return ['rule_edit', 'ends_soon'];
  return ['new_match'];
}

/** The dialog's fields, as typed (strings), in the units a trader thinks in: cents, points, hours. */
export interface AlertForm {
  kind: AlertKind;
  levelCents: string;
  direction: CrossDirection;
  points: string;
  windowHours: string;
  hours: string;
  label: string;
}

export function initialForm(subject: AlertSubject): AlertForm {
  const price = subject.kind === 'market' ? subject.price : undefined;
  return {
    kind: kindsFor(subject)[0]!,
    // The current price, so "crosses" starts from where the market is.
    levelCents: price === undefined ? '' : String(Number((price * 100).toFixed(1))),
    direction: 'either',
    points: '5',
    windowHours: '24',
    hours: '24',
    label: '',
  };
}

/**
 * A typed number as the grids print them ("42¢", "42%", "$0.42", "1k": amount.ts), or NaN (sent
 * as is, so the service's 400 says what is wrong); undefined when blank.
 */
const typed = (s: string): number | undefined => parseAmount(s);
/** Cents (or a chance in %, the same scale) to a price without float dust (63.1 / 100 is 0.6309999…). */
const cents = (s: string) => {
  const n = parseAmount(s, '¢');
  return n === undefined || Number.isNaN(n) ? n : Number((n / 100).toFixed(6));
};

export function createParams(subject: AlertSubject, f: AlertForm): InputOf<'alerts.create'> {
  const p: InputOf<'alerts.create'> = { kind: f.kind };
  if (subject.kind === 'market') p.market = subject.id;
  if (subject.kind === 'event') p.event = subject.id;
  if (subject.kind === 'search') p.q = subject.q;
  if (subject.kind === 'screen') p.screen = subject.id;
  if (f.kind === 'price_cross') Object.assign(p, { level: cents(f.levelCents), direction: f.direction });
  if (f.kind === 'price_move') Object.assign(p, { points: cents(f.points), window_hours: typed(f.windowHours) });
  if (f.kind === 'ends_soon') p.hours = typed(f.hours);
  if (f.label.trim()) p.label = f.label.trim();
  return p;
}

/** What a rule watches: its market or event, its search or screen, else the watchlist. */
export function targetText(r: AlertRule, screenName?: (id: string) => string | undefined): string {
  if (r.market) return r.market.question ?? r.market.slug ?? `Market ${r.market.id}`;
  if (r.event) return r.event.title ?? r.event.slug ?? `Event ${r.event.id}`;
  if (r.q !== undefined) return `Search ${quote(r.q)}`;
  if (r.screen !== undefined) return `Screen ${quote(screenName?.(r.screen) ?? r.screen)}`;
  return r.kind === 'order_done' ? 'My orders' : 'Watchlist';
}

/** The rule's condition in a few words, e.g. "crosses 60¢ up", "moves 5 pts in 24 h". */
export function conditionText(r: AlertRule): string {
  switch (r.kind) {
    case 'price_cross': {
      const dir = r.direction === 'up' ? ' ↑' : r.direction === 'down' ? ' ↓' : '';
      return `crosses ${fmtCents(r.level)}${dir}`;
    }
    case 'price_move':
      return `moves ${r.points === undefined ? '?' : Number((r.points * 100).toFixed(1))} pts in ${r.windowHours ?? '?'} h`;
    case 'ends_soon':
      return `ends within ${r.hours ?? '?'} h`;
    case 'new_match':
      return 'new market matches';
    case 'rule_edit':
      return 'rules edited';
    case 'order_done':
      return 'fills or is cancelled';
  }
}

const PRICE_KINDS = new Set<AlertKind>(['price_cross', 'price_move']);
const SHORT = 40;

/** One value of a fired alert: prices in cents, dates as dates, text cut short. */
export function valueText(kind: AlertKind, v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  // Cents as the service writes them in the alert's title (one decimal, toFixed's rounding), so the two agree.
  if (typeof v === 'number') return PRICE_KINDS.has(kind) ? `${Number((v * 100).toFixed(1))}¢` : String(v);
  if (typeof v === 'string') {
    const t = /^\d{4}-\d\d-\d\dT/.test(v) ? Date.parse(v) : Number.NaN;
    if (!Number.isNaN(t)) return new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    return v.length > SHORT ? `${v.slice(0, SHORT - 1)}…` : v;
  }
  return String(v);
}

const rec = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The change that made an alert fire, in one short line ("58¢ → 63¢"), or undefined when the
 * title already says all there is (a new match, a long rules text).
 */
export function changeText(a: Pick<FiredAlert, 'kind' | 'before' | 'after'>): string | undefined {
  const { kind, before, after } = a;
  if (PRICE_KINDS.has(kind)) return typeof after === 'number' ? `${valueText(kind, before)} → ${valueText(kind, after)}` : undefined;
  if (kind === 'ends_soon') return rec(after)['endDate'] ? `ends ${valueText(kind, rec(after)['endDate'])}` : undefined;
  if (kind === 'order_done') {
    const b = rec(before);
    const status = rec(after)['status'];
    return typeof status === 'string'
      ? `${valueText(kind, b['sizeMatched'] ?? 0)}/${valueText(kind, b['originalSize'])} matched → ${status}`
      : undefined;
  }
  if (kind === 'rule_edit') {
    // One short field (an end date, a title) reads well as before → after; a rules text does not.
    const fields = Object.keys(rec(after));
    const [field] = fields;
    const short = (v: unknown) => v === null || (typeof v === 'string' && v.length <= SHORT);
    if (fields.length !== 1 || !field || !short(rec(before)[field]) || !short(rec(after)[field])) return undefined;
    return `${valueText(kind, rec(before)[field])} → ${valueText(kind, rec(after)[field])}`;
  }
  return undefined;
}

/** Where a fired alert leads: its market, else its event. */
export function firedTarget(a: Pick<FiredAlert, 'market' | 'event'>): { kind: 'market' | 'event'; id: string } | undefined {
  if (a.market) return { kind: 'market', id: a.market.id };
  if (a.event) return { kind: 'event', id: a.event.id };
  return undefined;
}
