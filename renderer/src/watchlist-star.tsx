/** The watchlist star: a small accessible toggle, safe inside a clickable grid row. */
import type { WatchKind } from '../../src/contract/enums.ts';
import { useWatchlist } from './watchlist.tsx';
import './watchlist.css';

/** A star that adds or removes one market or event; safe inside a clickable grid row. */
export function Star({ kind, id, label, size = 16 }: { kind: WatchKind; id: string; label: string; size?: number }) {
  const { has, toggle } = useWatchlist();
  const on = has(kind, id);
  return (
    <button
      type="button"
      className={`star${on ? ' on' : ''}`}
      aria-pressed={on}
      aria-label={`${on ? 'Remove' : 'Add'} ${label} ${on ? 'from' : 'to'} watchlist`}
      title={on ? 'Remove from watchlist' : 'Add to watchlist'}
      onClick={(e) => {
        e.stopPropagation();
        toggle(kind, id);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') e.stopPropagation();
      }}
      onMouseDown={(e) => e.stopPropagation()}
    >
      <svg viewBox="0 0 16 16" width={size} height={size} aria-hidden="true">
        <path
          d="M8 1.6l1.9 4 4.4.5-3.3 3 .9 4.3L8 11.2l-3.9 2.2.9-4.3-3.3-3 4.4-.5z"
          fill={on ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.3"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
