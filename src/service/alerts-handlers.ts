/**
 * The alerts' operations (`alerts.list`, `.create`, `.remove`, `.fired`) over the alert engine,
 * and their push events (`alert` per firing, then `alerts`). A rule is checked whole before
 * anything changes: its kind's fields present, no field of another kind, its market, event or
 * screen known (else the catalog's 404). Fields come as query parameters or as a JSON body (the
 * body's win), with the same rules: the body's are run through the query's declarations.
 */
import {
  ApiError,
  badRequest,
  notFound,
  operations,
  parseParams,
  type AlertKind,
  type AlertRule,
  type ParamsOf,
  type PushEvents,
  type RawParams,
  type Screen,
} from '../contract/index.ts';
import type { AlertEngine, NewRule } from '../alerts/alert-engine.ts';
import { cents } from '../alerts/evaluate.ts';
import type { FiredLog } from '../alerts/fired-log.ts';
import { MAX_RULES, publicRule, type AlertRulesFile } from '../alerts/rules-file.ts';
import type { CatalogReads } from '../store/store-api.ts';
import { quote } from '../contract/quote.ts';
import type { HandlersFor } from '../contract/handlers.ts';
import type { PushHub, PushListener } from './push.ts';

type CreateParams = ParamsOf<'alerts.create'>;
type Field = 'market' | 'event' | 'level' | 'direction' | 'points' | 'window_hours' | 'hours' | 'screen' | 'q';

const FIELDS: readonly Field[] = ['market', 'event', 'level', 'direction', 'points', 'window_hours', 'hours', 'screen', 'q'];
/** The fields each kind takes; any other is refused (a field that silently did nothing would mislead). */
const TAKES: Record<AlertKind, readonly Field[]> = {
  price_cross: ['market', 'level', 'direction'],
  price_move: ['market', 'points', 'window_hours'],
  new_match: ['screen', 'q'],
  rule_edit: ['market', 'event'],
  ends_soon: ['market', 'event', 'hours'],
  order_done: ['market'],
};
const NEEDS: Record<AlertKind, readonly Field[]> = {
  price_cross: ['market', 'level'],
  price_move: ['market', 'points', 'window_hours'],
  new_match: [],
  rule_edit: [],
  ends_soon: ['hours'],
  order_done: [],
};
const MAX_LABEL = 120;

/** The query's parameters with the JSON body's fields over them, parsed by the same declarations. */
function mergedParams(p: CreateParams): CreateParams {
  if (p.body === undefined || p.body.trim() === '') return p;
  let body: unknown;
  try {
    body = JSON.parse(p.body);
  } catch {
    throw badRequest('catalog', 'the body must be JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('catalog', 'the body must be a JSON object');
  const raw: RawParams = {};
  for (const [k, v] of Object.entries(p)) if (k !== 'body' && v !== undefined) raw[k] = String(v);
  for (const [key, v] of Object.entries(body)) {
    // A rule as GET /alerts shows it names the window `windowHours`.
    const k = key === 'windowHours' ? 'window_hours' : key;
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw badRequest('catalog', `${key} must be a string or a number`);
    raw[k] = String(v);
  }
  const parsed = parseParams(operations['alerts.create'].params, raw);
  if (!parsed.ok) throw badRequest('catalog', parsed.message);
  return parsed.value;
}

function checkFields(p: CreateParams): AlertKind {
  const kind = p.kind;
  if (kind === undefined) throw badRequest('catalog', 'kind is required');
  for (const f of FIELDS) if (p[f] !== undefined && !TAKES[kind].includes(f)) throw badRequest('catalog', `${f} does not apply to ${kind}`);
  for (const f of NEEDS[kind]) if (p[f] === undefined) throw badRequest('catalog', `${f} is required for ${kind}`);
  if (p.market !== undefined && p.event !== undefined) throw badRequest('catalog', 'give market or event, not both');
  if (kind === 'new_match') {
    if (p.screen === undefined && (p.q === undefined || p.q.trim() === ''))
      throw badRequest('catalog', 'screen or q is required for new_match');
    if (p.screen !== undefined && p.q !== undefined) throw badRequest('catalog', 'give screen or q, not both');
  }
  return kind;
}

function numericId(v: string, name: string): number {
  if (!/^\d{1,15}$/.test(v)) throw badRequest('catalog', `${name} is invalid`);
  return Number(v);
}

/** A default label made from the rule. */
function labelOf(r: NewRule, screen: Screen | undefined): string {
  const target = r.market?.question ?? r.market?.id ?? r.event?.title ?? r.event?.id;
  const dir = r.direction && r.direction !== 'either' ? ` ${r.direction}` : '';
  switch (r.kind) {
    case 'price_cross':
      return `${target} crosses ${cents(r.level)}${dir}`;
    case 'price_move':
      return `${target} moves ${Number(((r.points ?? 0) * 100).toFixed(1))} pts in ${r.windowHours} h`;
    case 'new_match':
      return screen ? `New in screen ${quote(screen.name)}` : `New match for ${quote(r.q ?? '')}`;
    case 'rule_edit':
      return `Rules edited: ${target ?? 'watchlist'}`;
    case 'ends_soon':
      return `${target ?? 'Watchlist'} ends within ${r.hours} h`;
    case 'order_done':
      return `Order filled or cancelled${target ? `: ${target}` : ''}`;
  }
}

const cut = (s: string) => (s.length > MAX_LABEL ? `${s.slice(0, MAX_LABEL - 1)}…` : s);

export interface AlertsHandlerDeps {
  engine: AlertEngine;
  rules: AlertRulesFile;
  fired: FiredLog;
  reader: Pick<CatalogReads, 'getMarket' | 'getEvent'>;
  screen(id: string): Screen | undefined;
}

export function alertsHandlers(d: AlertsHandlerDeps): HandlersFor<'alerts.list' | 'alerts.create' | 'alerts.remove' | 'alerts.fired'> {
  return {
    'alerts.list': () => ({ rules: d.rules.list() }),
    'alerts.create': (query): AlertRule => {
      const p = mergedParams(query);
      const kind = checkFields(p);
      const rule: NewRule = { kind, label: '' };
      if (p.market !== undefined) {
        const m = d.reader.getMarket(numericId(p.market, 'market'));
        if (!m) throw notFound('id');
        rule.market = { id: m.id, slug: m.slug ?? null, question: m.question ?? null };
      }
      if (p.event !== undefined) {
        const e = d.reader.getEvent(numericId(p.event, 'event'));
        if (!e) throw notFound('id');
        rule.event = { id: e.id, slug: e.slug ?? null, title: e.title ?? null };
      }
      let screen: Screen | undefined;
      if (p.screen !== undefined) {
        screen = d.screen(p.screen);
        if (!screen) throw new ApiError(404, { type: 'not found error', error: 'screen not found' });
        rule.screen = screen.id;
      }
      if (p.q !== undefined) rule.q = p.q.trim();
      if (p.level !== undefined) rule.level = p.level;
      if (kind === 'price_cross') rule.direction = p.direction ?? 'either';
      if (p.points !== undefined) rule.points = p.points;
      if (p.window_hours !== undefined) rule.windowHours = p.window_hours;
      if (p.hours !== undefined) rule.hours = p.hours;
      const label = p.label?.trim();
      rule.label = cut(label ? label : labelOf(rule, screen));
      if (d.rules.all().length >= MAX_RULES) throw badRequest('catalog', `at most ${MAX_RULES} alert rules are kept`);
      return publicRule(d.engine.add(rule));
    },
    'alerts.remove': (p) => {
      if (!d.engine.remove(p.id)) throw notFound('id');
      return { rules: d.rules.list() };
    },
    'alerts.fired': (p) => d.fired.page(p.limit, p.offset),
  };
}

/** The push hub with `alert` (one per firing) and `alerts` (the rules) added; the snapshot carries the rules. */
export function withAlertsPush(hub: PushHub, engine: AlertEngine, rules: AlertRulesFile): PushHub {
  const listeners = new Set<PushListener>();
  const send = <K extends 'alert' | 'alerts'>(name: K, payload: PushEvents[K]) => {
    for (const fn of listeners) {
      try {
        fn(name, payload);
      } catch {
        // One broken transport must not starve the others.
      }
    }
  };
  const offFired = engine.onFired((fired) => {
    for (const f of fired) send('alert', f);
    if (listeners.size > 0) send('alerts', { rules: rules.list() });
  });
  const offRules = engine.onRulesChanged(() => {
    if (listeners.size > 0) send('alerts', { rules: rules.list() });
  });
  return {
    snapshot: () => ({ ...hub.snapshot(), alerts: { rules: rules.list() } }),
    subscribe(fn) {
      const unsubscribe = hub.subscribe(fn);
      listeners.add(fn);
      return () => {
        unsubscribe();
        listeners.delete(fn);
      };
    },
    close() {
      offFired();
      offRules();
      listeners.clear();
      hub.close();
    },
  };
}
