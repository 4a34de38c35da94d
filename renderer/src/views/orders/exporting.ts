/**
 * CSV exports and row copies for the Orders and Leaderboard views. Desktop: the core answers the
 * export over IPC as `{contentType, body}`. Web mode: the page fetches the route itself (signing
 * `auth: 'l2'` ones with this tab's credentials, as api.ts does), since a plain link could not
 * carry the signature. Either way the file is saved through a Blob and an `<a download>`.
 */
import { ApiError, apiBase, call, NoCredentialsError, ROUTES, routeUrl, type InputOf } from '../../api.ts';
import type { RawReply } from '../../../../src/contract/raw.ts';
import { l2Headers } from '../../l2-sign.ts';
import { loadSessionCredentials } from '../../session-credentials.ts';

export type ExportOp = 'orders.export' | 'catalog.export';

/** The file name the service gave (content-disposition), else `fallback`. */
function fileName(disposition: string | null | undefined, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

async function webExport<K extends ExportOp>(op: K, params: InputOf<K>): Promise<{ blob: Blob; disposition: string | null }> {
  const route = ROUTES[op];
  const url = new URL(routeUrl(route, params as Record<string, unknown>), apiBase());
  const headers: Record<string, string> = { accept: 'text/csv' };
  if ('auth' in route && route.auth === 'l2') {
    const creds = loadSessionCredentials();
    if (!creds) throw new NoCredentialsError(op);
    Object.assign(headers, await l2Headers(creds, { method: route.method, path: url.pathname }));
  }
  const res = await fetch(url, { headers });
  if (!res.ok) throw new ApiError(res.status, await res.json().catch(() => null));
  return { blob: await res.blob(), disposition: res.headers.get('content-disposition') };
}

/** Fetches the export and saves it; resolves with the file name once the download was handed to the browser. */
export async function downloadExport<K extends ExportOp>(op: K, params: InputOf<K>, fallbackName: string): Promise<string> {
  let blob: Blob;
  let disposition: string | null | undefined;
  if (window.marketdesk) {
    // Over IPC a raw result arrives collected (src/contract/raw.ts's collectRaw).
    const reply = (await call(op, params)) as unknown as RawReply;
    blob = new Blob([reply.body as BlobPart], { type: reply.contentType });
    disposition = reply.headers?.['content-disposition'];
  } else {
    ({ blob, disposition } = await webExport(op, params));
  }
  const name = fileName(disposition, fallbackName);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has started the download.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return name;
}

/** Puts text on the clipboard (the copy buttons are user gestures, which the Clipboard API asks for). */
export async function copyText(text: string): Promise<void> {
  await navigator.clipboard.writeText(text);
}
