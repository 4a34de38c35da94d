/**
 * "Copy selected rows" and "Export CSV", with what happened said beside them (role=status):
 * the same pair on the Orders and Leaderboard toolbars.
 */
import { useState } from 'react';
import { fmtInt } from '../../format.ts';
import { plural } from '../../plural.ts';

interface Props {
  selectedCount: number;
  onCopy(): Promise<void>;
  /** Resolves with the saved file's name. */
  onExport(): Promise<string>;
  canExport: boolean;
}

export function ExportCopy({ selectedCount, onCopy, onExport, canExport }: Props) {
  const [note, setNote] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = (action: () => Promise<string>) => {
    setBusy(true);
    action()
      .then((text) => setNote({ text, error: false }))
      .catch((e: unknown) => setNote({ text: e instanceof Error ? e.message : String(e), error: true }))
      .finally(() => setBusy(false));
  };
  const rows = plural(selectedCount, 'row');
  return (
    <>
      {note ? (
        <span className={note.error ? 'form-error' : 'muted'} role="status" data-testid="export-note">
          {note.text}
        </span>
      ) : null}
      <button
        type="button"
        className="btn"
        disabled={selectedCount === 0 || busy}
        onClick={() =>
          run(async () => {
            await onCopy();
            return `Copied ${rows}`;
          })
        }
      >
        Copy selected rows{selectedCount > 0 ? ` (${fmtInt(selectedCount)})` : ''}
      </button>
      <button type="button" className="btn" disabled={!canExport || busy} onClick={() => run(async () => `Saved ${await onExport()}`)}>
        Export CSV
      </button>
    </>
  );
}
