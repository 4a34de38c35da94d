/**
 * Saved screens (issue 16) as tabs above a catalog grid: "All" and one tab per saved screen of
 * the grid's kind. A tab's parameters are added to the grid's own (CatalogView `screen`), so the
 * count, the export and every block read the screen. New screens come from NewScreen's form.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ScreenKind } from '../../../src/contract/enums.ts';
import type { Screen } from '../../../src/contract/screens-ops.ts';
import { AlertButton } from '../alerts/AlertButton.tsx';
import { call } from '../api.ts';
import { useWatchlist } from '../watchlist.tsx';
import { NewScreen } from './NewScreen.tsx';
import './ScreenTabs.css';

const KEY = ['screens.list'] as const;

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
  const remove = useMutation({
    mutationFn: (id: string) => call('screens.remove', { id }),
    onSuccess: (list, id) => {
      queryClient.setQueryData(KEY, list);
      if (selected?.id === id) onSelect(null);
    },
  });
  const created = (s: Screen) => {
    void queryClient.invalidateQueries({ queryKey: KEY });
    setAdding(false);
    onSelect(s);
  };
  const mine = (screens.data?.screens ?? []).filter((s) => s.kind === kind);
  return (
    <div className="screen-tabs-wrap">
      <div className="screen-tabs" role="tablist" aria-label="Screens">
        <button type="button" role="tab" aria-selected={selected === null} onClick={() => onSelect(null)}>
          All {kind}
        </button>
        {mine.map((s) => (
          <span key={s.id} className="screen-tab" data-testid="screen-tab">
            <button type="button" role="tab" aria-selected={selected?.id === s.id} onClick={() => onSelect(s)}>
              {s.name}
            </button>
            <button type="button" className="screen-remove" aria-label={`Delete screen ${s.name}`} onClick={() => remove.mutate(s.id)}>
              ×
            </button>
          </span>
        ))}
        <button type="button" className="screen-add" aria-expanded={adding} onClick={() => setAdding((a) => !a)}>
          + Screen
        </button>
        {selected ? <AlertButton subject={{ kind: 'screen', id: selected.id, name: selected.name }} text="Alert on new matches" /> : null}
        {remove.error ? <span className="screen-error">{remove.error.message}</span> : null}
      </div>
      {adding ? <NewScreen kind={kind} onCreated={created} onCancel={() => setAdding(false)} /> : null}
    </div>
  );
}
