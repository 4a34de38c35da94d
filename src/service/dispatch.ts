/**
 * Calls an operation by name with raw (string) parameters, the same way for every face:
 * HTTP routes and the Electron IPC bridge both come through here, so validation and error
 * bodies cannot drift apart.
 */
import {
  ApiError,
  badRequest,
  internalError,
  isApiError,
  operations,
  parseParams,
  type OpName,
  type ParamsOf,
  type RawParams,
  type ResultOf,
} from '../contract/index.ts';
import type { Logger } from '../store/sqlite.ts';

/**
 * Which API's wire format a caller was written for: a `POLY_*`-signed request gets Polymarket
 * CLOB's (snake_case orders, `LTE=` end cursor, unix seconds), everything else the spec's.
 */
export type Dialect = 'polymarket' | 'spec';

/** What a call carries beyond its parameters; IPC calls have none of it. */
export interface CallContext {
  /** Absent: 'spec' (IPC, the web UI, `KUEST_*`-signed and unsigned callers). */
  dialect?: Dialect;
  /** HTTP only: sets a response header (the trading reads' `Age` and staleness). */
  header?(name: string, value: string): void;
  /** Aborts when the caller went away (HTTP: the client disconnected): upstream work for it stops. */
  signal?: AbortSignal;
}

export type Handler<K extends OpName> = (params: ParamsOf<K>, ctx: CallContext) => ResultOf<K> | Promise<ResultOf<K>>;
export type Handlers = { [K in OpName]: Handler<K> };
/** The handlers of one concern's operations; the service merges them into Handlers. */
export type HandlersFor<K extends OpName> = { [P in K]: Handler<P> };

export type Dispatch = <K extends OpName>(op: K, raw: RawParams, ctx?: CallContext) => Promise<ResultOf<K>>;

export function createDispatch(handlers: Handlers, log: Logger): Dispatch {
  return async (op, raw, ctx = {}) => {
    const def = operations[op];
    const parsed = parseParams(def.params, raw);
    if (!parsed.ok) {
      // The Data API words a bad value its own way (docs/upstream/clob-data-limits.md §3.3).
      throw badRequest(def.errors, def.errors === 'leaderboard' ? `invalid ${parsed.param} parameter` : parsed.message);
    }
    if (def.unknownParams === 'reject' && parsed.unknown?.length) {
      throw badRequest(def.errors, `unknown_field: ${parsed.unknown[0]}`);
    }
    try {
      const handler = handlers[op] as (p: unknown, c: CallContext) => unknown;
      return (await handler(parsed.value, ctx)) as ResultOf<typeof op>;
    } catch (e) {
      if (isApiError(e)) throw e;
      // Never a stack trace to a caller: log it, answer the spec's internal error body.
      log.warn(`${op} failed: ${(e as Error).stack ?? String(e)}`);
      throw internalError(def.errors);
    }
  };
}

export { ApiError };
