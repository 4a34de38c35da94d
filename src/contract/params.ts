/**
 * Query-parameter declarations. Every operation's parameters are declared once with these
 * helpers; the same declaration validates HTTP query strings and IPC calls (main/relay.ts turns
 * IPC params into the same string form) and gives the TypeScript type of the parsed params.
 */
import { z } from 'zod';

/** What a query string gives us: absent, one value, or a repeated key. */
export type RawValue = string | string[] | undefined;
export type RawParams = Record<string, RawValue>;

export interface ParamDef<T> {
  /** Validates one raw string. The message names the parameter and its rule. */
  schema: z.ZodType<T, string>;
  rule: string;
  default?: T;
  aliases?: readonly string[];
  required?: boolean;
  /** Repeated keys are collected (`?id=1&id=2`, Gamma's array form); `schema` checks each value. */
  repeated?: { maxItems: number };
  /**
   * A Gamma parameter whose data the cache does not hold. Any value but these no-op ones is a
   * 400 naming it: ignoring it would answer an unfiltered list as if it were filtered.
   */
  unsupported?: readonly string[];
}

const INT = /^-?\d{1,15}$/;

/** A declaration that always yields a value (it has a default). */
type Defaulted<T, O> = O extends { default: T } ? ParamDef<T> & { default: T } : ParamDef<T>;

export function int<const O extends { min?: number; max?: number; default?: number }>(opts: O = {} as O): Defaulted<number, O> {
  const { min, max } = opts;
  const rule =
    min !== undefined && max !== undefined
      ? `an integer between ${min} and ${max}`
      : min !== undefined
        ? `an integer >= ${min}`
        : 'an integer';
  let n = z.number().int();
  if (min !== undefined) n = n.min(min);
  if (max !== undefined) n = n.max(max);
  return {
    schema: z.string().regex(INT).transform(Number).pipe(n),
    rule,
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  } as Defaulted<number, O>;
}

const DECIMAL = /^-?(?:\d{1,20}(?:\.\d{0,20})?|\.\d{1,20})(?:[eE][+-]?\d{1,3})?$/;

/** A finite decimal number (Gamma's `number` ranges: `volume_num_min=1000.5`). */
export function num(): ParamDef<number> {
  return {
    schema: z.string().regex(DECIMAL).transform(Number).pipe(z.number().finite()),
    rule: 'a number',
  };
}

const ISO_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO 8601 date or date-time, as epoch milliseconds. A date alone is midnight UTC, and so is
 * a time without a zone (Gamma's server runs in UTC); Gamma's own `+00` form is accepted too.
 */
export function parseIsoDate(v: string): number | null {
  const m = ISO_DATE.exec(v);
  if (!m) return null;
  const [, day, time, zone] = m;
  let z = (zone ?? 'Z').toUpperCase();
  if (z !== 'Z') z = z.length === 3 ? `${z}:00` : z.includes(':') ? z : `${z.slice(0, 3)}:${z.slice(3)}`;
  const t = Date.parse(time === undefined ? `${day}T00:00:00Z` : `${day}T${time}${z}`);
  return Number.isNaN(t) ? null : t;
}

export function date(): ParamDef<number> {
  return {
    schema: z.string().transform((v, ctx) => {
      const t = parseIsoDate(v);
      if (t === null) {
        ctx.addIssue({ code: 'custom', message: 'not a date' });
        return z.NEVER;
      }
      return t;
    }),
    rule: 'an ISO 8601 date or date-time',
  };
}

export function bool<const O extends { default?: boolean }>(opts: O = {} as O): Defaulted<boolean, O> {
  return {
    schema: z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
    rule: 'true or false',
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  } as Defaulted<boolean, O>;
}

export function str<const O extends { maxLength?: number; required?: boolean }>(
  opts: O = {} as O,
): O extends { required: true } ? ParamDef<string> & { required: true } : ParamDef<string> {
  const max = opts.maxLength ?? 500;
  return {
    schema: z.string().max(max),
    rule: `a string of at most ${max} characters`,
    ...(opts.required ? { required: true } : {}),
  } as ParamDef<string> & { required: true };
}

export function oneOf<const V extends readonly [string, ...string[]], const O extends { default?: V[number] }>(
  values: V,
  opts: O = {} as O,
): Defaulted<V[number], O> {
  return {
    schema: z.enum(values) as unknown as z.ZodType<V[number], string>,
    rule: `one of ${values.join(', ')}`,
    ...(opts.default !== undefined ? { default: opts.default } : {}),
  } as Defaulted<V[number], O>;
}

/**
 * A repeatable parameter: every value of the key (and its aliases) is checked by `item` and
 * the list is returned in the order given. Comma-joined values are not split (Gamma does not).
 */
export function list<T>(item: ParamDef<T>, opts: { maxItems?: number } = {}): ParamDef<T[]> {
  const maxItems = opts.maxItems ?? 500;
  return {
    // Checks one value at a time (see parseParams); the cast only states the collected type.
    schema: item.schema as unknown as z.ZodType<T[], string>,
    rule: item.rule,
    repeated: { maxItems },
  };
}

/** A Gamma parameter the cache cannot serve; `noop` values (e.g. `false` of a flag) are accepted and change nothing. */
export function unsupported(...noop: string[]): ParamDef<never> {
  return { schema: z.never() as unknown as z.ZodType<never, string>, rule: 'not supported by this cache', unsupported: noop };
}

export function withAliases<D extends ParamDef<unknown>>(def: D, ...aliases: string[]): D {
  return { ...def, aliases };
}

export type ParamDefs = Record<string, ParamDef<unknown>>;

type HasDefault<D> = D extends { default: unknown } ? true : D extends { required: true } ? true : false;
type ValueOf<D> = D extends ParamDef<infer T> ? T : never;

/** The parsed parameter object: defaulted and required params are present, the rest optional. */
export type ParsedParams<Defs extends ParamDefs> = {
  [K in keyof Defs as HasDefault<Defs[K]> extends true ? K : never]: ValueOf<Defs[K]>;
} & {
  [K in keyof Defs as HasDefault<Defs[K]> extends true ? never : K]?: ValueOf<Defs[K]>;
};

/** The caller's side: every parameter optional, given in its typed form. */
export type InputParams<Defs extends ParamDefs> = {
  [K in keyof Defs]?: ValueOf<Defs[K]>;
};

export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string; param: string };

/**
 * Parses raw query values against the declarations. Unknown keys are returned separately so
 * each face decides (catalog routes ignore them; the leaderboard rejects them).
 */
export function parseParams<Defs extends ParamDefs>(defs: Defs, raw: RawParams): ParseResult<ParsedParams<Defs>> & { unknown?: string[] } {
  const out: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    known.add(name);
    const names = [name, ...(def.aliases ?? [])];
    for (const a of def.aliases ?? []) known.add(a);
    if (def.unsupported || def.repeated) {
      const r = collect(name, def, names, raw);
      if (!r.ok) return r;
      if (r.value !== undefined) out[name] = r.value;
      continue;
    }
    let given: string | undefined;
    let givenAs = name;
    for (const n of names) {
      const v = raw[n];
      if (v === undefined) continue;
      if (Array.isArray(v)) {
        if (v.length > 1) return { ok: false, param: n, message: `${n} must be given once` };
        if (v.length === 0) continue;
      }
      const s = Array.isArray(v) ? (v[0] as string) : v;
      if (given !== undefined && s !== given) {
        return { ok: false, param: n, message: `${givenAs} and ${n} disagree` };
      }
      given = s;
      givenAs = n;
    }
    if (given === undefined) {
      if (def.required) return { ok: false, param: name, message: `${name} is required` };
      if (def.default !== undefined) out[name] = def.default;
      continue;
    }
    const r = def.schema.safeParse(given);
    if (!r.success) {
      return { ok: false, param: givenAs, message: `${givenAs} must be ${def.rule}` };
    }
    out[name] = r.data;
  }
  const unknown = Object.keys(raw).filter((k) => !known.has(k));
  return { ok: true, value: out as ParsedParams<Defs>, unknown };
}

/** The unsupported and repeated kinds: every value of every name counts. */
function collect(name: string, def: ParamDef<unknown>, names: string[], raw: RawParams): ParseResult<unknown[] | undefined> {
  const values: { n: string; v: string }[] = [];
  for (const n of names) {
    const v = raw[n];
    if (v === undefined) continue;
    for (const s of Array.isArray(v) ? v : [v]) values.push({ n, v: s });
  }
  if (def.unsupported) {
    const bad = values.find((x) => !def.unsupported!.includes(x.v));
    return bad ? { ok: false, param: bad.n, message: `${bad.n} is not supported by this cache` } : { ok: true, value: undefined };
  }
  if (values.length === 0) {
    if (def.required) return { ok: false, param: name, message: `${name} is required` };
    return { ok: true, value: undefined };
  }
  const max = def.repeated!.maxItems;
  if (values.length > max) return { ok: false, param: values[0]!.n, message: `${values[0]!.n} must be given at most ${max} times` };
  const out: unknown[] = [];
  for (const { n, v } of values) {
    const r = def.schema.safeParse(v);
    if (!r.success) return { ok: false, param: n, message: `${n} must be ${def.rule}` };
    out.push(r.data);
  }
  return { ok: true, value: out };
}
