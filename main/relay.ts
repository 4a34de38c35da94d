/**
 * One IPC call into the service core: the same path an HTTP request takes (the contract's
 * dispatch: validation, handler, error bodies), with the renderer's typed parameters turned
 * into the query-string form first. No Electron import: it runs in the service worker.
 */
import { collectRaw, isApiError, isRawBody, operations, type OpName, type RawParams } from '../src/contract/index.ts';
import type { Dispatch } from '../src/contract/handlers.ts';
import type { BridgeReply } from '../src/contract/bridge.ts';

const badRequest = (error: string): BridgeReply => ({ ok: false, status: 400, body: { type: 'bad request', error } });

function isOpName(op: string): op is OpName {
  return Object.hasOwn(operations, op);
}

/** Typed params (numbers, booleans, strings, string lists) to raw query values; null if not that shape. */
export function toRaw(params: unknown): RawParams | null {
  if (params === undefined || params === null) return {};
  if (typeof params !== 'object' || Array.isArray(params)) return null;
  const raw: RawParams = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (!value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) return null;
      raw[key] = value.map(String);
    } else if (['string', 'number', 'boolean'].includes(typeof value)) {
      raw[key] = String(value);
    } else {
      return null;
    }
  }
  return raw;
}

export async function relay(dispatch: Dispatch, op: string, params: unknown): Promise<BridgeReply> {
  if (!isOpName(op)) return badRequest('unknown operation');
  const raw = toRaw(params);
  if (!raw) return badRequest('parameters must be an object of strings, numbers and booleans');
  try {
    const result = await dispatch(op, raw);
    // Bytes and text cross the worker port and the bridge by structured clone; a stream does not.
    return { ok: true, result: isRawBody(result) ? await collectRaw(result) : result };
  } catch (e) {
    if (isApiError(e)) {
      // The clob face answers `{error}` only; IPC answers exactly what HTTP would.
      const body = operations[op].face === 'clob' && 'type' in e.body ? { error: e.body.error } : e.body;
      return { ok: false, status: e.status, body };
    }
    return { ok: false, status: 500, body: { type: 'internal error', error: 'internal error' } };
  }
}
