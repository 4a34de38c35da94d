/**
 * How an operation is declared: its route data in routes.ts, its parameters and result type in
 * its concern's *-ops.ts (catalog-ops.ts, ...) under the same name; operations.ts joins them.
 */
import type { ParamDefs } from './params.ts';
import type { RouteDef } from './routes.ts';

export type { ErrorStyle, Face, Method, RouteDef, TtlClass } from './routes.ts';

/** An operation's parameters and result type. */
export interface OpDecl<Defs extends ParamDefs, Result> {
  params: Defs;
  /** Phantom field carrying the result type; never set at run time. */
  result?: Result;
}

/** A whole operation: its route joined with its declaration. */
export type OperationDef<Defs extends ParamDefs, Result> = RouteDef & OpDecl<Defs, Result>;

/** Curried so the result type is given and the parameter declarations are inferred. */
export function op<Result>() {
  return <Defs extends ParamDefs>(params: Defs): OpDecl<Defs, Result> => ({ params });
}

/**
 * One concern's declarations, keyed exactly by its routes' names: with `satisfies`, a route
 * without a declaration is a missing property and a declaration without a route an excess one.
 */
export type DeclsFor<Routes> = { [K in keyof Routes]: OpDecl<ParamDefs, unknown> };
