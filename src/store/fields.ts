/**
 * The cache's columns for the upstream fields it keeps: one column each, in the order of the
 * field lists (contract/catalog-fields.ts, where the fields and their types are declared once).
 * A column is NULL when the upstream left the key out, so the served object leaves it out
 * too. A value whose JSON type does not fit its column (an explicit null, a number sent as a
 * string) goes to the row's `_extra` JSON column instead, so every value keeps its exact type; a
 * `json` field (an array or object such as `positionIds`) keeps any value as its JSON text.
 */
import { EVENT_FIELD_KINDS, MARKET_FIELD_KINDS, SERIES_FIELD_KINDS, TAG_FIELD_KINDS, type FieldKind } from '../contract/catalog-fields.ts';

export type { FieldKind };

export interface FieldSpec {
  name: string;
  kind: FieldKind;
}

function fields(kinds: Readonly<Record<string, FieldKind>>): FieldSpec[] {
  return Object.entries(kinds).map(([name, kind]) => ({ name, kind }));
}

export const MARKET_FIELDS = fields(MARKET_FIELD_KINDS);
export const EVENT_FIELDS = fields(EVENT_FIELD_KINDS);
export const TAG_FIELDS = fields(TAG_FIELD_KINDS);
export const SERIES_FIELDS = fields(SERIES_FIELD_KINDS);

/** A column's SQL type for a field kind (migrations.test.ts holds the tables to it). */
export function columnType(kind: FieldKind): 'TEXT' | 'REAL' | 'INTEGER' {
  return kind === 'text' || kind === 'json' ? 'TEXT' : kind === 'num' ? 'REAL' : 'INTEGER';
}

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
    case 'json':
      return true;
  }
}

/** A column's value for a field's value that fits it (a `json` field keeps its JSON text). */
function toColumn(kind: FieldKind, v: unknown): string | number {
  return kind === 'bool' ? (v ? 1 : 0) : kind === 'json' ? JSON.stringify(v) : (v as string | number);
}

/** A field's value from its (non-NULL) column, with the type it came with. */
export function fromColumn(kind: FieldKind, v: unknown): unknown {
  return kind === 'bool' ? v === 1 : kind === 'json' && typeof v === 'string' ? JSON.parse(v) : v;
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
      values[i] = toColumn(spec.kind, v);
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
      out[spec.name] = fromColumn(spec.kind, v);
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
