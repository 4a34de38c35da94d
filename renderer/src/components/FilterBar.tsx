/**
 * Filters of the markets and events grids: a quick text filter, active / closed / archived, tag,
 * and (markets) event. Every change is a new query to the service, never a filter over loaded
 * rows. Also the row count (the service's count for these filters) and the grid's actions (export, copy).
 */
import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useMemo, useRef, type ReactNode } from 'react';
import { api, type RankedTag } from '../api.ts';
import { fmtInt } from '../format.ts';
import { DEFAULT_FILTERS, type CatalogFilters, type Tri } from '../ui-state.tsx';
import { QuickFilter } from './QuickFilter.tsx';
import { TagSelect, type TagOption } from './TagSelect.tsx';
import { plural, pluralOf } from '../plural.ts';

const TRI: { value: Tri; label: string }[] = [
  { value: 'any', label: 'Any' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

/** Tags with fewer open markets are left out of the tag list (the chosen one stays): junk and spent tags. */
export const TAG_MIN_OPEN = 3;

/** The tag list by use: most open markets first (GET /tags/ranked), labelled ones only. */
export function useTags(enabled = true): RankedTag[] {
  const tags = useQuery({
    queryKey: ['tags.ranked', { min_open: TAG_MIN_OPEN }],
    queryFn: () => api.tags.ranked({ min_open: TAG_MIN_OPEN }),
    staleTime: 60_000,
    enabled,
  });
  return useMemo(() => (tags.data?.tags ?? []).filter((t) => t.label), [tags.data]);
}

/** Memoised: the tag list is long, and the grid beside it re-renders as blocks arrive. */
export const FilterBar = memo(function FilterBar({
  filters,
  onChange,
  withEvent,
  count,
  actions,
}: {
  filters: CatalogFilters;
  onChange: (f: CatalogFilters) => void;
  withEvent: boolean;
  count: Count;
  /** Buttons at the end of the bar (Export CSV, Copy). */
  actions?: ReactNode;
}) {
  // After the grid's first rows: the service answers one request at a time, rows first.
  const tags = useTags(count.n > 0 || count.ended);
  const tag = filters.tag;
  const tagOptions = useMemo(
    () => (tag && !tags.some((t) => t.id === tag.id) ? [{ id: tag.id, label: tag.label }, ...tags] : tags),
    [tags, tag],
  );
  // The latest filters through a ref: the tag select's handler stays one function, so it does not re-render.
  const latest = useRef({ filters, onChange });
  latest.current = { filters, onChange };
  const onPickTag = useCallback((t: TagOption | undefined) => {
    const { tag: _drop, ...rest } = latest.current.filters;
    latest.current.onChange(t ? { ...rest, tag: { id: t.id, label: t.label ?? t.id } } : rest);
  }, []);
  const onText = useCallback((text: string) => {
    const { text: _drop, ...rest } = latest.current.filters;
    latest.current.onChange(text ? { ...rest, text } : rest);
  }, []);
  const changed = JSON.stringify(filters) !== JSON.stringify(DEFAULT_FILTERS);
  return (
    <div className="toolbar" role="toolbar" aria-label="Filters">
      <QuickFilter value={filters.text ?? ''} onChange={onText} noun={withEvent ? 'market' : 'event'} />
      {(['active', 'closed', 'archived'] as const).map((k) => (
        <label key={k} className="field">
          <span className="field-label">{k[0]!.toUpperCase() + k.slice(1)}</span>
          <select
            aria-label={`${k[0]!.toUpperCase() + k.slice(1)} filter`}
            value={filters[k]}
            onChange={(e) => onChange({ ...filters, [k]: e.target.value as Tri })}
          >
            {TRI.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
      ))}
      <TagSelect value={tag?.id ?? ''} options={tagOptions} onPick={onPickTag} />
      {withEvent && filters.event ? (
        <span className="chip" data-testid="event-filter">
          <span className="chip-label">Event: {filters.event.title}</span>
          <button
            type="button"
            className="chip-x"
            aria-label="Clear event filter"
            onClick={() => {
              const { event: _drop, ...rest } = filters;
              onChange(rest);
            }}
          >
            ×
          </button>
        </span>
      ) : null}
      {changed ? (
        <button type="button" className="btn btn-quiet" onClick={() => onChange(DEFAULT_FILTERS)}>
          Reset filters
        </button>
      ) : null}
      <span className="toolbar-spacer" />
      <RowCount {...count} />
      {actions}
    </div>
  );
});

export interface Count {
  /** Rows so far: the service's count for these filters once known, else the rows loaded. */
  n: number;
  /** `n` is all of them. */
  ended: boolean;
  noun: string;
  /** Placeholder rows (no prices) left out of the loaded blocks. */
  hidden?: number;
}

export function RowCount({ n, ended, noun, hidden = 0 }: Count) {
  return (
    <>
      <span className="row-count" data-testid="row-count" aria-live="polite">
        {ended ? plural(n, noun) : n === 0 ? '' : `${fmtInt(n)}+ ${pluralOf(noun)}`}
      </span>
      {hidden > 0 ? (
        <span className="hidden-note" data-testid="grid-placeholders-hidden" title="Markets with no prices yet, as Polymarket hides them">
          {plural(hidden, `placeholder ${noun}`)} hidden
        </span>
      ) : null}
    </>
  );
}
