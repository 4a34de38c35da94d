/**
 * What the grid shows instead of rows when its list could not be loaded.
 */
export function GridError({ error, retry }: { error: Error | null; retry: () => void }) {
  return (
    <div className="grid-overlay">
      <div className="empty">
        <p className="empty-title">Could not load this list</p>
        <p className="empty-hint">{error?.message ?? 'unknown error'}</p>
        <button type="button" className="btn" onClick={retry}>
          Retry
        </button>
      </div>
    </div>
  );
}
