/**
 * Calls an operation by name with raw (string) parameters, the same way for every face:
 * HTTP routes and the Electron IPC bridge both come through here, so validation and error
 * bodies cannot drift apart.
 */
import { ApiError, badRequest, internalError, isApiError, operations, parseParams, type ResultOf } from '../contract/index.ts';
import type { CallContext, Dispatch, Handlers } from '../contract/handlers.ts';
import type { Logger } from '../logger.ts';

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
