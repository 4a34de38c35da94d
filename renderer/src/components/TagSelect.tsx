/**
 * The filter bar's tag choice: tags ranked by use (open markets, GET /tags/ranked), the rarely used
 * left out by the service's rule, the chosen tag always listed. A search field beside the list
 * narrows it to the tags whose label has the typed words; Enter there picks the first (most used)
 * match, Esc clears it. Memoised: hundreds of options render only when the tags, the choice or
 * the search change, not on every other filter change or count.
 */
import { memo, useMemo, useState } from 'react';
import type { TagOption } from './tag-match.ts';
import { fmtInt } from '../format.ts';
import './filters.css';
import { matchTags } from './tag-match.ts';

export type { TagOption } from './tag-match.ts';

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
