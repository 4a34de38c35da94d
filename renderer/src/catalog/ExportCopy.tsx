/**
 * "Export CSV" (all rows the filters and sort select, from the service) and "Copy" (the
 * selected rows as TSV) for a grid's toolbar.
 */
import { useState } from 'react';
import { downloadExport, exportByLink, exportUrl, type ExportList } from './export.ts';

export function ExportCopy({
  list,
  params,
  selected,
  onCopy,
}: {
  list: ExportList;
  params: Record<string, unknown>;
  selected: number;
  onCopy: () => void;
}) {
  const [error, setError] = useState<string>();
  const title = 'Download every row these filters select, in this order, as CSV';
  return (
    <>
      {exportByLink() ? (
        <a className="btn btn-quiet" href={exportUrl(list, params)} download title={title} data-testid="export-csv">
          Export CSV
        </a>
      ) : (
        <button
          type="button"
          className="btn btn-quiet"
          title={title}
          data-testid="export-csv"
          onClick={() => {
            setError(undefined);
            downloadExport(list, params).catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
          }}
        >
          Export CSV
        </button>
      )}
      {error ? (
        <span className="hidden-note" role="alert">
          Export failed: {error}
        </span>
      ) : null}
      <button
        type="button"
        className="btn btn-quiet"
        disabled={selected === 0}
        onClick={onCopy}
        title="Copy the selected rows as tab-separated text (Ctrl+C in the grid). Select with Ctrl/Shift-click or Space."
      >
        {selected > 1 ? `Copy ${selected} rows` : 'Copy row'}
      </button>
    </>
  );
}
