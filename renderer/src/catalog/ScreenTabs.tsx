/**
 * Saved screens (issue 16) as tabs above a catalog grid: "All" and one tab per saved screen of
 * the grid's kind. A tab's parameters are added to the grid's own (CatalogView `screen`), so the
 * count, the export and every block read the screen. New screens come from NewScreen's form, which
 * also edits one (✎); the selected screen's filters show in a line under the tabs (and each tab's
 * tooltip). A delete can be undone for a few seconds: the screen is removed from the service only
 * then (or when the view goes), so Undo loses nothing, alerts on it included.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { ScreenKind } from '../../../src/contract/enums.ts';
import type { Screen } from '../../../src/contract/screens-ops.ts';
import { AlertButton } from '../alerts/AlertButton.tsx';
import { quote } from '../../../src/contract/quote.ts';
import { call } from '../api.ts';
import { useWatchlist } from '../watchlist.tsx';
import { NewScreen, screenSummary } from './NewScreen.tsx';
import './ScreenTabs.css';

const KEY = ['screens.list'] as const;
/** How long a deleted screen can be brought back. */
export const UNDO_MS = 8000;

/**
 * A screen "on my watchlist" lists other rows when the watchlist changes, which moves no catalog
 * version (what the grids refetch on): its blocks and count are refetched on each change instead.
 */
export function useScreenFreshness(kind: ScreenKind, screen: Screen | null): void {
  const queryClient = useQueryClient();
  const { items } = useWatchlist();
  const watching = screen?.params['md_watchlist'] !== undefined;
  useEffect(() => {
    // `items` is read so the effect runs on each watchlist change.
    if (!watching || items === undefined) return;
    void queryClient.invalidateQueries({ queryKey: [`${kind}.list`] });
    void queryClient.invalidateQueries({ queryKey: [`${kind}.count`] });
  }, [queryClient, kind, watching, items]);
}

/**
 * A delete waiting for its Undo: the screen is hidden at once and removed from the service after
 * UNDO_MS, or sooner when another delete comes or the view unmounts.
 */
function useUndoableRemove(onRemoved: (list: { screens: Screen[] }, id: string) => void) {
  const [pending, setPending] = useState<Screen | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const pendingRef = useRef<Screen | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => call('screens.remove', { id }),
    onSuccess: (list, id) => onRemoved(list, id),
  });
  const mutate = useRef(remove.mutate);
  mutate.current = remove.mutate;
  const commit = () => {
    clearTimeout(timer.current);
    const s = pendingRef.current;
    pendingRef.current = null;
    if (s) mutate.current(s.id);
  };
  const commitRef = useRef(commit);
  commitRef.current = commit;
  useEffect(() => () => commitRef.current(), []);
  return {
    pending,
    error: remove.error,
    start(s: Screen) {
      commit();
      pendingRef.current = s;
      setPending(s);
      timer.current = setTimeout(() => {
        commitRef.current();
        setPending(null);
      }, UNDO_MS);
    },
    undo() {
      clearTimeout(timer.current);
      pendingRef.current = null;
      setPending(null);
    },
  };
}

export function ScreenTabs({
  kind,
  selected,
  onSelect,
}: {
  kind: ScreenKind;
  selected: Screen | null;
  onSelect: (s: Screen | null) => void;
}) {
  const queryClient = useQueryClient();
  const screens = useQuery({ queryKey: KEY, queryFn: () => call('screens.list', {}) });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Screen | null>(null);
  const remove = useUndoableRemove((list) => queryClient.setQueryData(KEY, list));
  const created = (s: Screen) => {
    void queryClient.invalidateQueries({ queryKey: KEY });
    setAdding(false);
    setEditing(null);
    onSelect(s);
  };
  const [wasSelected, setWasSelected] = useState(false);
  const startRemove = (s: Screen) => {
    setWasSelected(selected?.id === s.id);
    if (selected?.id === s.id) onSelect(null);
    if (editing?.id === s.id) setEditing(null);
    remove.start(s);
  };
  const undo = () => {
    const s = remove.pending;
    remove.undo();
    if (s && wasSelected) onSelect(s);
  };
  const mine = (screens.data?.screens ?? []).filter((s) => s.kind === kind && s.id !== remove.pending?.id);
  return (
    <div className="screen-tabs-wrap">
      <div className="screen-tabs" role="tablist" aria-label="Screens">
        <button type="button" role="tab" aria-selected={selected === null} onClick={() => onSelect(null)}>
          All {kind}
        </button>
        {mine.map((s) => (
          <span key={s.id} className="screen-tab" data-testid="screen-tab">
            <button type="button" role="tab" aria-selected={selected?.id === s.id} title={screenSummary(s)} onClick={() => onSelect(s)}>
              {s.name}
            </button>
            <button
              type="button"
              className="screen-remove"
              aria-label={`Edit screen ${s.name}`}
              title="Edit"
              aria-expanded={editing?.id === s.id}
              onClick={() => {
                setAdding(false);
                setEditing((e) => (e?.id === s.id ? null : s));
              }}
            >
              ✎
            </button>
            <button
              type="button"
              className="screen-remove"
              aria-label={`Delete screen ${s.name}`}
              title="Delete"
              onClick={() => startRemove(s)}
            >
              ×
            </button>
          </span>
        ))}
        <button
          type="button"
          className="screen-add"
          aria-expanded={adding}
          onClick={() => {
            setEditing(null);
            setAdding((a) => !a);
          }}
        >
          + Screen
        </button>
        {selected ? <AlertButton subject={{ kind: 'screen', id: selected.id, name: selected.name }} text="Alert on new matches" /> : null}
        {remove.error ? <span className="screen-error">{remove.error.message}</span> : null}
        {remove.pending ? (
          <span className="screen-undo" role="status" data-testid="screen-undo">
            Deleted screen {quote(remove.pending.name)}.{' '}
            <button type="button" className="link-btn" onClick={undo}>
              Undo
            </button>
          </span>
        ) : null}
      </div>
      {selected && !editing ? (
        <p className="screen-summary" data-testid="screen-summary" title={screenSummary(selected)}>
          <span className="muted">Filters: </span>
          {screenSummary(selected)}
        </p>
      ) : null}
      {adding ? <NewScreen kind={kind} onCreated={created} onCancel={() => setAdding(false)} /> : null}
      {editing ? <NewScreen key={editing.id} kind={kind} screen={editing} onCreated={created} onCancel={() => setEditing(null)} /> : null}
    </div>
  );
}
