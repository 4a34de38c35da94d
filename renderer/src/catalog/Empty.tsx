/**
 * A catalog grid's empty state: no catalog at all (and why), or no rows for these filters.
 */
import { noCatalog } from '../catalog-state.ts';
import { useLive } from '../live.tsx';

export function Empty({ noun }: { noun: string }) {
  const missing = noCatalog(useLive());
  if (missing) {
    return (
      <div className="empty" data-testid="no-catalog">
        <p className="empty-title">No catalog yet: connect once to download it</p>
        <p className="empty-hint">{missing.trying}</p>
      </div>
    );
  }
  return (
    <div className="empty">
      <p className="empty-title">No {noun} match these filters</p>
      <p className="empty-hint">Change or reset the filters. New {noun} appear as the catalog syncs.</p>
    </div>
  );
}
