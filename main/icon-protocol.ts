/**
 * The desktop app's icon scheme, `marketdesk-icon://<kind>/<id>` (market or event): main/index.ts
 * registers it as a privileged scheme and answers it here by invoking `icons.get` in the service
 * core over the same path as every IPC call, so icons show even with the HTTP faces off. No
 * Electron or Node import, so it is tested under plain Node; the name is in icon-scheme.ts.
 */
import type { RawReply } from '../src/contract/raw.ts';
import { PLACEHOLDER_BYTES, PLACEHOLDER_CACHE_CONTROL, PLACEHOLDER_TYPE } from '../src/icons/placeholder.ts';
import { ICON_SCHEME } from '../src/contract/icon-scheme.ts';
import type { BridgeReply } from '../src/contract/bridge.ts';

export { ICON_SCHEME };

/** How the scheme is registered before the app is ready (Electron's CustomScheme privileges). */
export const ICON_SCHEME_PRIVILEGES = { standard: true, secure: true, supportFetchAPI: true } as const;

export type Invoke = (op: string, params: unknown) => Promise<BridgeReply>;

/** `marketdesk-icon://market/123` -> { kind, id }; null for anything else. */
export function parseIconUrl(href: string): { kind: string; id: string } | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  const id = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (url.protocol !== `${ICON_SCHEME}:` || url.hostname === '' || id === '' || id.includes('/')) return null;
  return { kind: url.hostname, id };
}

function isRawReply(v: unknown): v is RawReply {
  return typeof v === 'object' && v !== null && typeof (v as RawReply).contentType === 'string' && 'body' in v;
}

function placeholder(): Response {
  return new Response(PLACEHOLDER_BYTES.slice(), {
    status: 200,
    headers: { 'content-type': PLACEHOLDER_TYPE, 'cache-control': PLACEHOLDER_CACHE_CONTROL },
  });
}

/**
 * The answer to one icon request: the core's image with its headers, its 4xx error body as JSON,
 * or the placeholder when the core cannot answer (not running, restarting, a failure).
 */
export async function iconResponse(href: string, invoke: Invoke): Promise<Response> {
  const target = parseIconUrl(href);
  if (!target) return Response.json({ type: 'not found error', error: 'not found' }, { status: 404 });
  let reply: BridgeReply;
  try {
    reply = await invoke('icons.get', target);
  } catch {
    return placeholder();
  }
  if (reply.ok) {
    if (!isRawReply(reply.result)) return placeholder();
    const { contentType, body, headers } = reply.result;
    return new Response(typeof body === 'string' ? body : body.slice(), {
      status: 200,
      headers: { ...headers, 'content-type': contentType },
    });
  }
  if (reply.status >= 400 && reply.status < 500) return Response.json(reply.body, { status: reply.status });
  return placeholder();
}
