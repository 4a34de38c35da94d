/**
 * How an operation is declared. The table is operations.ts; each concern declares its own
 * operations in a file of its own (catalog-ops.ts, ...) that the table spreads in.
 */
import type { ParamDefs } from './params.ts';

export type Face = 'base' | 'clob';
/** Which error-body family an operation answers with (spec section 7). */
export type ErrorStyle = 'catalog' | 'orders' | 'leaderboard';

export interface OperationDef<Defs extends ParamDefs, Result> {
  face: Face;
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify-style path; `:name` segments are path parameters, declared in `params` too. */
  path: string;
  params: Defs;
  errors: ErrorStyle;
  /** Unknown query parameters: ignored (Gamma's way) or rejected (the leaderboard's). */
  unknownParams: 'ignore' | 'reject';
  /** 'catalog': the answer depends only on the parameters and the catalog, so HTTP faces may
   * reuse its serialised form until the catalog changes. */
  cache?: 'catalog';
  /** HTTP callers must carry L2 auth headers (checked by the face; IPC is the app itself). */
  auth?: 'l2';
  /**
   * Web mode: the base face serves this clob-face operation too, at the same path with the same
   * auth, so the web UI (a page of the base face's origin, whose CSP allows `connect-src 'self'`
   * only) reaches it without a cross-origin request. The page signs `auth: 'l2'` ones itself.
   */
  webUi?: true;
  /** false: IPC only, never an HTTP route (setting credentials, for one). */
  http?: false;
  /** Phantom field carrying the result type; never set at run time. */
  result?: Result;
}

/** Curried so the result type is given and the parameter declarations are inferred. */
export function op<Result>() {
  return <Defs extends ParamDefs>(def: Omit<OperationDef<Defs, Result>, 'result'>): OperationDef<Defs, Result> => def;
}

