/**
 * The shapes every face and handler agree on: an operation's handler, the handlers of one
 * concern, the dispatcher, and what a call carries beyond its parameters. Types only (no zod at
 * run time), so HTTP, IPC, the service and main can all name them; src/service/dispatch.ts
 * implements the dispatcher.
 */
import type { OpName, ParamsOf, ResultOf } from './operations.ts';
import type { RawParams } from './params.ts';

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
  /**
   * HTTP, `auth: 'l1'` routes only: the caller's four L1 headers (`POLY_ADDRESS`, `POLY_SIGNATURE`,
   * `POLY_TIMESTAMP`, `POLY_NONCE`), as sent, for the handler to forward upstream unchanged.
   */
  l1?: Readonly<Record<string, string>>;
}

export type Handler<K extends OpName> = (params: ParamsOf<K>, ctx: CallContext) => ResultOf<K> | Promise<ResultOf<K>>;
export type Handlers = { [K in OpName]: Handler<K> };
/** The handlers of one concern's operations; the service merges them into Handlers. */
export type HandlersFor<K extends OpName> = { [P in K]: Handler<P> };

export type Dispatch = <K extends OpName>(op: K, raw: RawParams, ctx?: CallContext) => Promise<ResultOf<K>>;
