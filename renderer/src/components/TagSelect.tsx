/**
 * The filter bar's tag choice: tags ranked by use (open markets, GET /tags/ranked), the rarely used
 * left out by the service's rule, the chosen tag always listed. A search field beside the list
 * narrows it to the tags whose label has the typed words; Enter there picks the first (most used)
 * match, Esc clears it. Memoised: hundreds of options render only when the tags, the choice or
 * the search change, not on every other filter change or count.
 */
import { memo, useMemo, useState } from 'react';
import { fmtInt } from '../format.ts';
import './filters.css';

export interface TagOption {
  id: string;
  label?: string | undefined;
  /** Open markets carrying the tag (unknown for a chosen tag the ranked list left out). */
  open_markets?: number | undefined;
}

/** Case- and accent-folded words, as the search index reads them. */
export const foldWords = (text: string): string[] =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The options whose label has a word starting with each typed word; the chosen one always. */
export function matchTags<T extends TagOption>(options: readonly T[], query: string, chosen: string): T[] {
  const want = foldWords(query);
  if (want.length === 0) return [...options];
  return options.filter((t) => {
    if (t.id === chosen) return true;
    const have = foldWords(t.label ?? '');
    return want.every((w) => have.some((h) => h.startsWith(w)));
  });
}

export const TagSelect = memo(function TagSelect({
  value,
  options,
  onPick,
}: {
  /** The chosen tag's id ('' = all tags). */
  value: string;
  options: readonly TagOption[];
  /** The chosen option, or undefined for all tags. */
  onPick: (tag: TagOption | undefined) => void;
}) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => matchTags(options, query, value), [options, query, value]);
  const first = shown.find((t) => t.id !== value) ?? shown[0];
  return (
    <span className="field tag-field">
      <span className="field-label">Tag</span>
      <input
        type="search"
        className="text-input tag-search"
        aria-label="Search tags"
        placeholder="Find tag"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && query.trim() && first) {
            e.preventDefault();
            onPick(first);
            setQuery('');
          }
          if (e.key === 'Escape' && query !== '') {
            e.preventDefault();
            e.stopPropagation();
            setQuery('');
          }
        }}
      />
      <select
        aria-label="Tag filter"
        className="tag-select"
        value={value}
        onChange={(e) => onPick(options.find((x) => x.id === e.target.value))}
      >
        <option value="">All tags</option>
        {shown.map((t) => (
          <option key={t.id} value={t.id}>
            {t.open_markets !== undefined ? `${t.label ?? t.id} (${fmtInt(t.open_markets)})` : (t.label ?? t.id)}
          </option>
        ))}
      </select>
    </span>
  );
});
