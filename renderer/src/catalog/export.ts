/**
 * Downloading a listing as CSV (`catalog.export`: every row the filters and sort select, not
 * just the loaded ones). Web: a plain link to the route, which the service streams with its own
 * file name. Desktop: the operation over IPC, its `{contentType, body}` made into a download.
 */
import type { ExportList } from '../../../src/contract/enums.ts';
import { apiBase, call, mode, ROUTES, routeUrl, type InputOf } from '../api.ts';

export type { ExportList };
type Params = Record<string, unknown>;

export function exportUrl(list: ExportList, params: Params): string {
  return new URL(routeUrl(ROUTES['catalog.export'], { ...params, list }), apiBase()).href;
}

const fileName = (list: ExportList) => `marketdesk-${list}-${new Date().toISOString().slice(0, 10)}.csv`;

/** Desktop: fetches the CSV over IPC and saves it through a temporary object URL. */
export async function downloadExport(list: ExportList, params: Params): Promise<void> {
  const reply = (await call('catalog.export', { ...params, list } as InputOf<'catalog.export'>)) as unknown as {
    contentType: string;
    body: Uint8Array | string;
  };
  const part: BlobPart = typeof reply.body === 'string' ? reply.body : new Uint8Array(reply.body);
  const url = URL.createObjectURL(new Blob([part], { type: reply.contentType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(list);
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const exportByLink = () => mode === 'web';
