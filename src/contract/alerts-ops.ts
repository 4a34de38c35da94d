/**
 * Alerts (issue 16): rules the user sets from a market, an event, a search or a screen, checked by
 * the service after every catalog sync and every orders refresh. A rule fires once per crossing
 * (it re-arms when its condition stops holding); what fired is kept in a log and pushed to the
 * clients (push.ts `alert`). Their routes are routes.ts's `alertsRoutes`.
 */
import { z } from 'zod';
import { op, type DeclsFor } from './define.ts';
import { ALERT_KINDS, CROSS_DIRECTIONS, type AlertKind, type CrossDirection } from './enums.ts';
import { int, num, oneOf, str, type ParamDef } from './params.ts';
import type { alertsRoutes } from './routes.ts';

// The rule kinds (each described there) and the crossing directions.
export { ALERT_KINDS, CROSS_DIRECTIONS, type AlertKind, type CrossDirection } from './enums.ts';

export interface AlertTarget {
  market?: { id: string; slug: string | null; question: string | null };
  event?: { id: string; slug: string | null; title: string | null };
}

export interface AlertRule extends AlertTarget {
  id: string;
  kind: AlertKind;
  /** price_cross: the level, 0..1. */
  level?: number;
  /** price_cross: which way counts (default either). */
  direction?: CrossDirection;
  /** price_move: the move in price units (0.05 = 5 points). */
  points?: number;
  /** price_move: the window, hours. */
  windowHours?: number;
  /** ends_soon: hours before the end date. */
  hours?: number;
  /** new_match: a saved screen's id, or a search text. */
  screen?: string;
  q?: string;
  /** What the user called it; else made from the rule. */
  label: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601 of its last firing, null before. */
  lastFiredAt: string | null;
}

export interface AlertList {
  rules: AlertRule[];
}

export interface FiredAlert extends AlertTarget {
  /** Unique in the log. */
  id: string;
  ruleId: string;
  kind: AlertKind;
  /** ISO 8601: when the service saw it. */
  at: string;
  /** One line, e.g. "Fed cuts in December? crossed 60¢ (58¢ → 63¢)". */
  title: string;
  /** The values that made it fire: before and after. */
  before: unknown;
  after: unknown;
  /** order_done: the order and what happened to it. */
  order?: { id: string; outcome: string | null; side: string | null; status: 'filled' | 'cancelled' };
}

const targetSchema = z.object({
  market: z.object({ id: z.string(), slug: z.string().nullable(), question: z.string().nullable() }).optional(),
  event: z.object({ id: z.string(), slug: z.string().nullable(), title: z.string().nullable() }).optional(),
}) satisfies z.ZodType<AlertTarget>;

/** A rule as the rules file keeps it (alerts/rules-file.ts adds its state). */
export const alertRuleSchema = targetSchema.extend({
  id: z.string(),
  kind: z.enum(ALERT_KINDS),
  level: z.number().optional(),
  direction: z.enum(CROSS_DIRECTIONS).optional(),
  points: z.number().optional(),
  windowHours: z.number().optional(),
  hours: z.number().optional(),
  screen: z.string().optional(),
  q: z.string().optional(),
  label: z.string(),
  createdAt: z.string(),
  lastFiredAt: z.string().nullable(),
}) satisfies z.ZodType<AlertRule>;

/** A firing as the alerts' log keeps it (alerts/fired-log.ts). */
export const firedAlertSchema = targetSchema.extend({
  id: z.string(),
  ruleId: z.string(),
  kind: z.enum(ALERT_KINDS),
  at: z.string(),
  title: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  order: z
    .object({ id: z.string(), outcome: z.string().nullable(), side: z.string().nullable(), status: z.enum(['filled', 'cancelled']) })
    .optional(),
}) satisfies z.ZodType<FiredAlert>;

export interface FiredPage {
  total: number;
  /** Newest first. */
  fired: FiredAlert[];
}

/** A finite number between `min` and `max` inclusive. */
function numIn(min: number, max: number): ParamDef<number> {
  return { schema: num().schema.pipe(z.number().min(min).max(max)), rule: `a number between ${min} and ${max}` };
}

/** A JSON body with the same fields (scripts POST JSON; the renderer's client sends them as the query). */
const alertBody: ParamDef<string> = { schema: z.string().max(16 * 1024), rule: 'a JSON body of at most 16 KiB' };

export const alertsOperations = {
  'alerts.list': op<AlertList>()({}),
  /** Which fields a kind needs is checked by the handler; the body's fields win over the query's. */
  'alerts.create': op<AlertRule>()({
    body: alertBody,
    kind: oneOf(ALERT_KINDS),
    market: str({ maxLength: 100 }),
    event: str({ maxLength: 100 }),
    level: numIn(0, 1),
    direction: oneOf(CROSS_DIRECTIONS),
    points: numIn(0.001, 1),
    window_hours: int({ min: 1, max: 720 }),
    hours: int({ min: 1, max: 8760 }),
    screen: str({ maxLength: 40 }),
    q: str({ maxLength: 200 }),
    label: str({ maxLength: 120 }),
  }),
  'alerts.remove': op<AlertList>()({ id: str({ required: true, maxLength: 40 }) }),
  'alerts.fired': op<FiredPage>()({
    limit: int({ min: 1, max: 1000, default: 100 }),
    offset: int({ min: 0, max: 1_000_000, default: 0 }),
  }),
} satisfies DeclsFor<typeof alertsRoutes>;
