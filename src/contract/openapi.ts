/**
 * The contract read as documentation: each operation's parameters as JSON Schema, its error
 * answers and its auth, and from those one OpenAPI 3.1 document per HTTP face. The faces serve
 * it at `GET /openapi.json` (src/http/openapi-route.ts); scripts/api-docs.ts renders docs/api.md
 * from the same descriptions, so the two never disagree.
 *
 * Parameters map to JSON Schema through their zod declarations (params.ts): `z.toJSONSchema` of
 * the parsed value where that is a plain value (integers and numbers with their bounds, strings
 * with their length, enums), else of the string the caller sends (dates, times, comma lists).
 * `bool()` is a boolean; a repeated parameter an array of its item; an unsupported Gamma
 * parameter accepts only its no-op values. Defaults, aliases and the rule text come along.
 */
import { z } from 'zod';
import { API_TOKEN_HEADER } from './local-api-ops.ts';
import { operations } from './operations.ts';
import type { ParamDef } from './params.ts';
import { DEFAULT_BASE_PORT, DEFAULT_CLOB_PORT } from './ports.ts';
import { RESULT_NAMES } from './result-names.ts';
import { ROUTES, isLocalWrite, opNames, servedOn, type Face, type OpName, type RouteDef } from './routes.ts';

export const OPENAPI_PATH = '/openapi.json';
export const FACES: readonly Face[] = ['base', 'clob'];
export const DEFAULT_PORTS: Record<Face, number> = { base: DEFAULT_BASE_PORT, clob: DEFAULT_CLOB_PORT };

/**
 * The L2 auth headers: five in each family, as src/auth/l2.ts `l2Headers` sends and `verifyL2`
 * reads them (a test keeps the two equal; this layer may not import that one).
 */
export const L2_FAMILIES = ['POLY', 'KUEST'] as const;
export const L2_HEADER_PARTS = ['ADDRESS', 'SIGNATURE', 'TIMESTAMP', 'API_KEY', 'PASSPHRASE'] as const;
export const l2HeaderNames = (family: (typeof L2_FAMILIES)[number]): string[] => L2_HEADER_PARTS.map((p) => `${family}_${p}`);
/** The L1 auth headers (a wallet's ClobAuth signature), as src/http/face.ts reads them for `auth: 'l1'` routes. */
export const L1_HEADER_NAMES = ['POLY_ADDRESS', 'POLY_SIGNATURE', 'POLY_TIMESTAMP', 'POLY_NONCE'] as const;

export type JsonSchema = { [key: string]: unknown };

/** Where a parameter is given over HTTP; `ipc`: the operation has no HTTP route. */
export type ParamIn = 'path' | 'query' | 'body' | 'ipc';

export interface ParamDoc {
  name: string;
  in: ParamIn;
  /** JSON Schema of the value (an array of the item for a repeated parameter), with its default. */
  schema: JsonSchema;
  /** The contract's rule, as the 400 message names it: `limit must be <rule>`. */
  rule: string;
  required: boolean;
  default?: unknown;
  aliases: readonly string[];
  repeated?: { maxItems: number };
  /** A Gamma parameter the cache cannot serve: only these values pass (and change nothing). */
  unsupported?: readonly string[];
}

/** The two error bodies (types.ts): the catalog family's and the plain one. */
export type ErrorBodyName = 'CatalogError' | 'PlainError';

export interface ErrorDoc {
  status: number;
  body: ErrorBodyName;
  when: string;
}

export type Security = 'l2' | 'l1' | 'localToken' | 'none';

/** Media types of the operations whose result is a RawBody (raw.ts) rather than JSON. */
const RAW_MEDIA: Partial<Record<OpName, readonly string[]>> = {
  'catalog.export': ['text/csv'],
  'orders.export': ['text/csv'],
  'icons.get': ['image/webp', 'image/svg+xml'],
};

export function rawMediaTypes(name: OpName): readonly string[] | undefined {
  return RAW_MEDIA[name];
}

/** The result type's name as its `op<Result>()` declares it (result-names.ts, generated). */
export function resultName(name: OpName): string {
  return (RESULT_NAMES as Partial<Record<OpName, string>>)[name] ?? 'unknown';
}

/** `/markets/:id` -> `/markets/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function pathParamNames(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

const BOOL_STRINGS = new Set(['true', 'false', '1', '0']);

/** zod's schema without `$schema`, and without the safe-integer bounds `z.int()` adds by itself. */
function clean(s: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = s;
  if (rest['maximum'] === Number.MAX_SAFE_INTEGER) delete rest['maximum'];
  if (rest['minimum'] === Number.MIN_SAFE_INTEGER) delete rest['minimum'];
  return rest;
}

/** JSON Schema of one value of the parameter. */
function valueSchema(def: ParamDef<unknown>): JsonSchema {
  if (def.unsupported) return def.unsupported.length > 0 ? { type: 'string', enum: [...def.unsupported] } : { not: {} };
  const out = clean(z.toJSONSchema(def.schema, { io: 'output', unrepresentable: 'any' }) as JsonSchema);
  if (Object.keys(out).length > 0) return out;
  // The parsed value is made by a transform (a date's epoch, a boolean): describe what is sent.
  const input = clean(z.toJSONSchema(def.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
  const values = input['enum'];
  if (Array.isArray(values) && values.length > 0 && values.every((v) => BOOL_STRINGS.has(String(v)))) return { type: 'boolean' };
  return input;
}

const defsOf = (name: OpName): Record<string, ParamDef<unknown>> => operations[name].params as Record<string, ParamDef<unknown>>;

/** Each parameter of the operation: where it is given, its schema, rule, default and aliases. */
export function paramDocs(name: OpName): ParamDoc[] {
  const def: RouteDef = ROUTES[name];
  const inPath = new Set(pathParamNames(def.path));
  return Object.entries(defsOf(name)).map(([param, p]) => {
    const where: ParamIn =
      def.http === false ? 'ipc' : inPath.has(param) ? 'path' : param === 'body' && def.method !== 'GET' ? 'body' : 'query';
    const one = valueSchema(p);
    const schema: JsonSchema = p.repeated ? { type: 'array', items: one, maxItems: p.repeated.maxItems } : one;
    if (p.default !== undefined) schema['default'] = p.default;
    return {
      name: param,
      in: where,
      schema,
      rule: p.rule,
      required: where === 'path' || p.required === true,
      ...(p.default !== undefined ? { default: p.default } : {}),
      aliases: p.aliases ?? [],
      ...(p.repeated ? { repeated: p.repeated } : {}),
      ...(p.unsupported ? { unsupported: p.unsupported } : {}),
    };
  });
}

export function securityOf(def: RouteDef): Security {
  return def.auth === 'l2' ? 'l2' : def.auth === 'l1' ? 'l1' : isLocalWrite(def) ? 'localToken' : 'none';
}

/** The faces that answer the operation over HTTP: its own, and the base face for `webUi` ones. */
export function facesOf(def: RouteDef): Face[] {
  return FACES.filter((f) => servedOn(def, f));
}

/**
 * The error answers of an operation on a face (src/http/face.ts, origin-guard.ts, write-guard.ts,
 * limits/http.ts): the clob face answers `{error}` only; on the base face a refusal before the
 * handler (guard, token) is `{type, error}`, and the handler's errors are in the operation's family.
 */
export function errorDocs(name: OpName, face: Face): ErrorDoc[] {
  const def: RouteDef = ROUTES[name];
  const family: ErrorBodyName = face === 'base' && def.errors === 'catalog' ? 'CatalogError' : 'PlainError';
  const guard: ErrorBodyName = face === 'base' ? 'CatalogError' : 'PlainError';
  const security = securityOf(def);
  const out: ErrorDoc[] = [
    {
      status: 400,
      body: family,
      when:
        def.unknownParams === 'reject'
          ? 'a parameter is not valid, or is unknown (the message names it)'
          : 'a parameter is not valid (the message names it)',
    },
  ];
  if (security === 'l2') out.push({ status: 401, body: 'PlainError', when: 'no valid L2 auth headers' });
  if (security === 'l1')
    out.push({ status: 401, body: 'PlainError', when: 'an L1 auth header is missing, or the upstream refused the signature' });
  if (security === 'localToken') out.push({ status: 401, body: guard, when: `the ${API_TOKEN_HEADER} header is missing or wrong` });
  out.push({
    status: 403,
    body: guard,
    when:
      security === 'localToken'
        ? "Host is not this machine's loopback, or another site's page sent it"
        : "Host names another machine, or another site's page sent it",
  });
  if (pathParamNames(def.path).length > 0) out.push({ status: 404, body: family, when: 'nothing has that id (or slug)' });
  if (def.method === 'POST') out.push({ status: 415, body: guard, when: 'the body is not sent as application/json' });
  out.push({ status: 429, body: family, when: 'throttled by the inbound rate limits (see Retry-After)' });
  out.push({ status: 500, body: family, when: 'an internal error' });
  out.push({
    status: 503,
    body: family,
    when: def.ttl
      ? 'the upstream is unreachable and no cached answer is kept, or too many requests are pipelined on the connection'
      : 'an answer needs the upstream, which is unreachable, or too many requests are pipelined on the connection',
  });
  return out;
}

const ERROR_SCHEMAS: Record<ErrorBodyName, JsonSchema> = {
  CatalogError: {
    type: 'object',
    description: 'The catalog family: `{"type": "bad request", "error": "limit must be an integer between 1 and 100"}`.',
    properties: { type: { type: 'string' }, error: { type: 'string' } },
    required: ['type', 'error'],
  },
  PlainError: {
    type: 'object',
    description: 'The orders and leaderboard family, and every error of the clob face: `{"error": "Unauthorized/Invalid api key"}`.',
    properties: { error: { type: 'string' } },
    required: ['error'],
  },
};

const capital = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function parameterObject(p: ParamDoc): JsonSchema {
  const notes = [p.unsupported ? unsupportedNote(p.unsupported) : `Must be ${p.rule}.`];
  if (p.repeated) notes.push(`Repeat the key for several values (at most ${p.repeated.maxItems}).`);
  if (p.aliases.length > 0) notes.push(`Also read as ${p.aliases.map((a) => `\`${a}\``).join(', ')}.`);
  return {
    name: p.name,
    in: p.in,
    ...(p.required ? { required: true } : {}),
    description: notes.join(' '),
    schema: p.schema,
    ...(p.aliases.length > 0 ? { 'x-aliases': [...p.aliases] } : {}),
  };
}

export function unsupportedNote(noop: readonly string[]): string {
  const pass = noop.length > 0 ? ` Only ${noop.map((v) => `\`${v}\``).join(', ')} pass, and change nothing.` : '';
  return `Not supported by this cache: a value is a 400 naming it.${pass}`;
}

function describeOp(name: OpName, def: RouteDef): string {
  const lines = [`Result: \`${resultName(name)}\`.`];
  if (def.unknownParams === 'reject') lines.push('Unknown parameters are refused (400).');
  if (def.cache === 'catalog') lines.push('Answers are reused until the catalog changes.');
  if (def.ttl)
    lines.push(`Forwarded to the upstream ${def.path.startsWith('/v2/') ? 'Data API' : 'CLOB'}; cached (${def.ttl} lifetime class).`);
  if (isLocalWrite(def)) lines.push(`A write: needs the local API token in \`${API_TOKEN_HEADER}\` and a loopback Host.`);
  if (def.auth === 'l2') lines.push('Needs L2 auth: the five POLY_* (or KUEST_*) headers.');
  if (def.auth === 'l1') lines.push("Needs L1 auth: the caller's wallet signature in the four POLY_* L1 headers, forwarded unchanged.");
  if (def.webUi) lines.push('Served by the base face too, for the web UI.');
  lines.push(`Reference: docs/api.md, section ${name}.`);
  return lines.join(' ');
}

function l1Requirements(): Record<string, string[]>[] {
  return [Object.fromEntries(L1_HEADER_NAMES.map((h) => [`L1_${h}`, []]))];
}

function l2Requirements(): Record<string, string[]>[] {
  return L2_FAMILIES.map((f) => Object.fromEntries(l2HeaderNames(f).map((h) => [h, []])));
}

function securitySchemes(used: Set<Security>): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  if (used.has('localToken')) {
    out['localApiToken'] = {
      type: 'apiKey',
      in: 'header',
      name: API_TOKEN_HEADER,
      description: 'The local API token (shown in the desktop settings; kept in `<data dir>/api-token`). Writes on the base face need it.',
    };
  }
  if (used.has('l1')) {
    for (const name of L1_HEADER_NAMES) {
      out[`L1_${name}`] = {
        type: 'apiKey',
        in: 'header',
        name,
        description:
          name === 'POLY_SIGNATURE'
            ? "The wallet's EIP-712 ClobAuth signature (domain ClobAuthDomain, version 1) over address, timestamp, nonce and message."
            : 'CLOB L1 auth: all four headers are sent together and forwarded upstream unchanged.',
      };
    }
  }
  if (used.has('l2')) {
    for (const family of L2_FAMILIES) {
      for (const part of L2_HEADER_PARTS) {
        out[`${family}_${part}`] = {
          type: 'apiKey',
          in: 'header',
          name: `${family}_${part}`,
          description:
            part === 'SIGNATURE'
              ? 'URL-safe base64 HMAC-SHA256 of timestamp + METHOD + path + body, keyed by the base64 API secret.'
              : `CLOB L2 auth (${family}_* family): all five ${family}_* headers are sent together.`,
        };
      }
    }
  }
  return out;
}

function operationObject(name: OpName, face: Face): JsonSchema {
  const def: RouteDef = ROUTES[name];
  const params = paramDocs(name);
  const body = params.find((p) => p.in === 'body');
  const raw = rawMediaTypes(name);
  const security = securityOf(def);
  const responses: Record<string, JsonSchema> = {
    '200': {
      description: `\`${resultName(name)}\``,
      content: raw ? Object.fromEntries(raw.map((t) => [t, {}])) : { 'application/json': { schema: {} } },
    },
  };
  for (const e of errorDocs(name, face)) {
    responses[String(e.status)] = {
      description: capital(e.when),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${e.body}` } } },
    };
  }
  return {
    operationId: name,
    tags: [name.split('.')[0]!],
    description: describeOp(name, def),
    parameters: params.filter((p) => p.in !== 'body').map(parameterObject),
    ...(body
      ? {
          requestBody: {
            required: body.required,
            description: `JSON: ${body.rule}.`,
            content: { 'application/json': { schema: {} } },
          },
        }
      : {}),
    ...(security === 'l2'
      ? { security: l2Requirements() }
      : security === 'l1'
        ? { security: l1Requirements() }
        : security === 'localToken'
          ? { security: [{ localApiToken: [] }] }
          : {}),
    responses,
  };
}

/** The operations a face answers over HTTP, in the contract's order. */
export function faceOps(face: Face): OpName[] {
  return opNames.filter((n) => servedOn(ROUTES[n], face));
}

/** The OpenAPI 3.1 document of one face: its routes, and `GET /openapi.json` itself. */
export function openApiDocument(face: Face, opts: { version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const used = new Set<Security>();
  const bodies = new Set<ErrorBodyName>();
  for (const name of faceOps(face)) {
    const def: RouteDef = ROUTES[name];
    const op = operationObject(name, face);
    used.add(securityOf(def));
    for (const e of errorDocs(name, face)) bodies.add(e.body);
    const path = openApiPath(def.path);
    paths[path] = { ...paths[path], [def.method.toLowerCase()]: op };
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'openapi.get',
      tags: ['openapi'],
      description: 'This document: the OpenAPI 3.1 description of this face, generated from the contract (src/contract).',
      responses: { '200': { description: 'An OpenAPI 3.1 document', content: { 'application/json': { schema: {} } } } },
    },
  };
  const port = DEFAULT_PORTS[face];
  return {
    openapi: '3.1.0',
    info: {
      title: `marketdesk: the ${face} face`,
      version: opts.version,
      description:
        `The ${face} face of marketdesk's local HTTP API (default \`http://127.0.0.1:${port}\`), ` +
        'generated from the contract in src/contract. Every parameter is a query parameter unless the path names it; ' +
        'rules hold for all routes are in docs/api-guide.md, and each route with examples in docs/api.md.',
    },
    servers: [
      { url: '/', description: 'the face that served this document' },
      { url: `http://127.0.0.1:${port}`, description: `the ${face} face's default address` },
    ],
    paths,
    components: {
      schemas: Object.fromEntries([...bodies].sort().map((b) => [b, ERROR_SCHEMAS[b]])),
      securitySchemes: securitySchemes(used),
    },
  };
}
