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
