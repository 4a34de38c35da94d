/**
 * Web mode's copy of the watchlist in localStorage (`marketdesk.watchlist`): the last list the
 * service gave and the toggles it has not confirmed yet, so both survive a reload.
 */
import type { WatchItem } from '../../src/contract/desk-ops.ts';
import { WATCH_KINDS, type WatchKind } from '../../src/contract/enums.ts';

/** A toggle the service has not confirmed yet (sending, or queued while it is unreachable). */
export interface PendingOp {
  op: 'add' | 'remove';
  kind: WatchKind;
  id: string;
  at: string;
}

export const STORAGE_KEY = 'marketdesk.watchlist';

/** `items` with the pending toggles applied in order (newest add first, like the service). */
export function applyPending(items: readonly WatchItem[], pending: readonly PendingOp[]): WatchItem[] {
  let out = [...items];
  for (const p of pending) {
    out = out.filter((i) => !(i.kind === p.kind && i.id === p.id));
    if (p.op === 'add') out.unshift({ kind: p.kind, id: p.id, addedAt: p.at });
  }
  return out;
}

export function isItem(v: unknown): v is WatchItem {
  const o = v as Partial<WatchItem> | null;
  return !!o && (WATCH_KINDS as readonly unknown[]).includes(o.kind) && typeof o.id === 'string' && typeof o.addedAt === 'string';
}

/** Web mode's copy: `{ items, pending }`; anything unreadable counts as empty. */
export function loadLocal(): { items: WatchItem[]; pending: PendingOp[] } {
  try {
    const raw = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { items?: unknown; pending?: unknown } | null;
    const items = Array.isArray(raw?.items) ? raw.items.filter(isItem) : [];
    const pending = Array.isArray(raw?.pending)
      ? (raw.pending as PendingOp[]).filter((p) => (p?.op === 'add' || p?.op === 'remove') && isItem({ ...p, addedAt: p.at }))
      : [];
    return { items, pending };
  } catch {
    return { items: [], pending: [] };
  }
}

export function saveLocal(items: WatchItem[], pending: PendingOp[]): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ items, pending }));
  } catch {
    // Storage full or disabled: the service still has the list.
  }
}
