/**
 * Which upstream fields the cache keeps, one column each, in Gamma's live key order.
 * A column is NULL when the upstream left the key out, so the served object leaves it out
 * too. A value whose JSON type does not fit its column (an explicit null, a number sent as a
 * string) goes to the row's `_extra` JSON column instead, so every value keeps its exact type.
 */
export type FieldKind = 'text' | 'num' | 'bool';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
}

function fields(spec: string): FieldSpec[] {
  return spec
    .trim()
    .split(/\s+/)
    .map((tok) => {
      const [name, k] = tok.split(':') as [string, string | undefined];
      const kind: FieldKind = k === 'n' ? 'num' : k === 'b' ? 'bool' : 'text';
      return { name, kind };
    });
}

/** Markets: spec 2.1 plus prices, money and trading fields (`:n` number, `:b` boolean). */
export const MARKET_FIELDS = fields(`
  question conditionId slug resolutionSource endDate category liquidity startDate image icon description
  outcomes outcomePrices volume active:b closed:b marketMakerAddress createdAt updatedAt closedTime
  new:b featured:b submitted_by creator archived:b resolvedBy restricted:b groupItemTitle groupItemThreshold
  questionID enableOrderBook:b orderPriceMinTickSize:n orderMinSize:n volumeNum:n liquidityNum:n
  endDateIso startDateIso volume24hr:n volume1wk:n volume1mo:n volume1yr:n clobTokenIds umaBond umaReward
  volumeClob:n liquidityClob:n acceptingOrders:b negRisk:b negRiskMarketID competitive:n spread:n
  oneDayPriceChange:n oneHourPriceChange:n oneWeekPriceChange:n oneMonthPriceChange:n lastTradePrice:n
  bestBid:n bestAsk:n umaResolutionStatus umaResolutionStatuses sportsMarketType line:n gameId
`);

/** Events: spec 2.2 plus money fields (numbers on events, unlike markets). */
export const EVENT_FIELDS = fields(`
  ticker slug title description resolutionSource startDate creationDate endDate image icon
  active:b closed:b archived:b new:b featured:b restricted:b liquidity:n volume:n openInterest:n
  createdAt updatedAt closedTime competitive:n volume24hr:n volume1wk:n volume1mo:n volume1yr:n
  enableOrderBook:b liquidityClob:n negRisk:b negRiskMarketID commentCount:n seriesSlug creator
`);

/** Tags, as `/tags` and an event's `tags` carry them. */
export const TAG_FIELDS = fields(`
  label slug forceShow:b forceHide:b isCarousel:b publishedAt createdAt updatedAt requiresTranslation:b
`);

export const SERIES_FIELDS = fields(`ticker slug title seriesType recurrence image icon active:b closed:b archived:b createdAt updatedAt`);

/** Quoted SQL column name for a field (Gamma names are camelCase; some are SQL keywords). */
export function col(name: string): string {
  return `"${name}"`;
}

function fits(kind: FieldKind, v: unknown): boolean {
  switch (kind) {
    case 'text':
      return typeof v === 'string';
    case 'num':
      return typeof v === 'number' && Number.isFinite(v);
    case 'bool':
      return typeof v === 'boolean';
  }
}

/**
 * Splits an upstream object into column values (in `specs` order) and the extras that keep
 * values of an unexpected type. Keys not in `specs` are not kept.
 */
export function toColumns(
  obj: Record<string, unknown>,
  specs: readonly FieldSpec[],
): { values: (string | number | null)[]; extra: string | null } {
  const values: (string | number | null)[] = new Array(specs.length);
  let extra: Record<string, unknown> | null = null;
  for (let i = 0; i < specs.length; i++) {
    const spec = specs[i]!;
    const v = obj[spec.name];
    if (v === undefined) {
      values[i] = null;
    } else if (fits(spec.kind, v)) {
      values[i] = spec.kind === 'bool' ? (v ? 1 : 0) : (v as string | number);
    } else {
      values[i] = null;
      extra ??= {};
      extra[spec.name] = v;
    }
  }
  return { values, extra: extra ? JSON.stringify(extra) : null };
}

/**
 * Builds a row-to-object mapper for rows whose first column is the numeric id, followed by
 * the spec columns and `_extra`. Missing values stay missing.
 */
export function rowMapper(specs: readonly FieldSpec[], onlyExtra?: ReadonlySet<string>): (row: unknown[]) => Record<string, unknown> {
  const n = specs.length;
  return (row) => {
    const out: Record<string, unknown> = { id: String(row[0]) };
    for (let i = 0; i < n; i++) {
      const v = row[i + 1];
      if (v === null || v === undefined) continue;
      const spec = specs[i]!;
      out[spec.name] = spec.kind === 'bool' ? v === 1 : v;
    }
    const extra = row[n + 1];
    if (typeof extra === 'string') {
      const parsed = JSON.parse(extra) as Record<string, unknown>;
      if (onlyExtra) for (const k of Object.keys(parsed)) if (!onlyExtra.has(k)) delete parsed[k];
      Object.assign(out, parsed);
    }
    return out;
  };
}

/**
 * A projection of a table's fields (in the table's order) and its row mapper, which keeps
 * only the projected keys of `_extra` too. Select `id, <columns>, _extra` for it.
 */
export function projection(
  all: readonly FieldSpec[],
  names: readonly string[],
): { specs: FieldSpec[]; map: (row: unknown[]) => Record<string, unknown> } {
  const wanted = new Set(names);
  const specs = all.filter((s) => wanted.has(s.name));
  const missing = names.filter((n) => !specs.some((s) => s.name === n));
  if (missing.length) throw new Error(`projection: unknown fields ${missing.join(', ')}`);
  return { specs, map: rowMapper(specs, wanted) };
}

/** `"a","b",...` for SELECT and INSERT lists. */
export function columnList(specs: readonly FieldSpec[]): string {
  return specs.map((s) => col(s.name)).join(', ');
}

export function columnDdl(specs: readonly FieldSpec[]): string {
  return specs.map((s) => `${col(s.name)} ${s.kind === 'text' ? 'TEXT' : s.kind === 'num' ? 'REAL' : 'INTEGER'}`).join(',\n  ');
}
