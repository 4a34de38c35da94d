/**
 * Errors as values: every failure a caller can see has a status and one of the spec's bodies
 * (section 7, docs/architecture.md, "Decisions"). Handlers throw ApiError; faces turn it into a response.
 */
import type { ErrorBody } from './types.ts';
import type { ErrorStyle } from './operations.ts';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.error);
    this.name = 'ApiError';
  }
}

/** A bad parameter, in the family of the operation it was sent to. */
export function badRequest(style: ErrorStyle, message: string): ApiError {
  switch (style) {
    case 'catalog':
      return new ApiError(400, { type: 'bad request', error: message });
    case 'orders':
    case 'leaderboard':
      return new ApiError(400, { error: message });
  }
}

export function notFound(what: 'id' | 'slug' | 'route'): ApiError {
  return new ApiError(404, { type: 'not found error', error: what === 'route' ? 'not found' : `${what} not found` });
}

export function internalError(style: ErrorStyle): ApiError {
  return style === 'catalog'
    ? new ApiError(500, { type: 'internal error', error: 'internal error' })
    : new ApiError(500, { error: 'internal_error' });
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}
