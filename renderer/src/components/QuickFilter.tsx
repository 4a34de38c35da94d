/**
 * The grids' quick text filter: every word must start a word of the market's question (or the
 * event's title), answered by the service (md_q, the screens' text filter) over the whole list.
 * Debounced so a word typed is one query; Esc clears it (and only it: the panel stays open).
 */
import { memo, useEffect, useRef, useState } from 'react';
import './filters.css';

export const QUICK_FILTER_DEBOUNCE_MS = 250;

export const QuickFilter = memo(function QuickFilter({
  value,
  onChange,
  noun,
}: {
  /** The filter in force ('' = none). */
  value: string;
  onChange: (text: string) => void;
  noun: 'market' | 'event';
}) {
  const [text, setText] = useState(value);
  // The last text handed up: an outside change (Reset filters) replaces what is typed, our own echo does not.
  const sent = useRef(value);
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setText(value);
    }
  }, [value]);
  const commit = (t: string) => {
    const v = t.trim();
    if (v === sent.current) return;
    sent.current = v;
    onChange(v);
  };
  useEffect(() => {
    if (text.trim() === sent.current) return;
    const t = setTimeout(() => commit(text), QUICK_FILTER_DEBOUNCE_MS);
    return () => clearTimeout(t);
  });
  return (
    <input
      type="search"
      className="text-input quick-filter"
      aria-label={`Filter ${noun}s by text`}
      placeholder={`Filter ${noun}s…`}
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit(text);
        if (e.key === 'Escape' && text !== '') {
          // Esc clears the box; the global Esc (close the panel) waits for the next one.
          e.preventDefault();
          e.stopPropagation();
          setText('');
          commit('');
        }
      }}
    />
  );
});
