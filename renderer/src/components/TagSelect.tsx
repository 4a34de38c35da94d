/**
 * The filter bar's tag choice: hundreds of options, so it is memoised on its own and renders
 * only when the tag list or the chosen tag changes, not on every other filter change or count.
 */
import { memo } from 'react';
import type { Tag } from '../api.ts';

export interface TagOption {
  id: string;
  label?: string | undefined;
}

export const TagSelect = memo(function TagSelect({
  value,
  options,
  onPick,
}: {
  /** The chosen tag's id ('' = all tags). */
  value: string;
  options: readonly (Tag | TagOption)[];
  /** The chosen option, or undefined for all tags. */
  onPick: (tag: TagOption | undefined) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">Tag</span>
      <select
        aria-label="Tag filter"
        className="tag-select"
        value={value}
        onChange={(e) => onPick(options.find((x) => x.id === e.target.value))}
      >
        <option value="">All tags</option>
        {options.map((t) => (
          <option key={t.id} value={t.id}>
            {t.label}
          </option>
        ))}
      </select>
    </label>
  );
});
