/**
 * The local API token as the desktop settings show it. IPC only (routes.ts
 * `localApiRoutes`, `http: false`): served over HTTP it would hand the token to any caller.
 */
import { op, type DeclsFor } from './define.ts';
import type { localApiRoutes } from './routes.ts';

/** The header a write over HTTP carries the local API token in. */
export const API_TOKEN_HEADER = 'X-Marketdesk-Token';
/** The `<meta name>` web mode's page carries the token in (served by src/http/web-ui.ts). */
export const TOKEN_META = 'marketdesk-token';

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
