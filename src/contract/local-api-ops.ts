/**
 * The local API token (issue 16) as the desktop settings show it. IPC only (routes.ts
 * `localApiRoutes`, `http: false`): served over HTTP it would hand the token to any caller.
 */
import { op, type DeclsFor } from './define.ts';
import type { localApiRoutes } from './routes.ts';

export interface ApiTokenInfo {
  /** What a write over HTTP carries in `X-Marketdesk-Token`. */
  token: string;
  header: string;
  /** The file it is kept in (mode 600); null: this service has no data dir and keeps it in memory. */
  file: string | null;
}

export const localApiOperations = {
  'apiToken.get': op<ApiTokenInfo>()({}),
} satisfies DeclsFor<typeof localApiRoutes>;
