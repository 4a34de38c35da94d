/**
 * "Rules edited 3 hours ago" and, on demand, what the edit changed word by word (issue 16): the
 * latest revision of the market's or event's description, read from the service's own record
 * (`markets.revisions` / `events.revisions`, kept across restarts and offline). Shown only when
 * that edit is recent (RECENT_MS). Inserted words are underlined, deleted ones struck through,
 * so the marks do not rest on colour alone.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { Revision } from '../../../src/contract/history-ops.ts';
import { call } from '../api.ts';
import { wordDiff } from '../diff/word-diff.ts';
import { fmtAgo, fmtDateTime } from '../format.ts';
import { useNow } from '../hooks/useNow.ts';
import { onCatalogChange } from '../live.tsx';
import './RulesDiff.css';

/** An edit older than this is not news. */
export const RECENT_MS = 7 * 86_400_000;

/** The newest description edit among revisions (newest first), if any. */
export function latestRulesEdit(revisions: readonly Revision[]): Revision | undefined {
  return revisions.find((r) => r.field === 'description');
}

function useRulesEdit(kind: 'market' | 'event', id: string): Revision | undefined {
  const op = kind === 'market' ? 'markets.revisions' : 'events.revisions';
  const qc = useQueryClient();
  const q = useQuery({ queryKey: [op, { id }], queryFn: () => call(op, { id, limit: 100 }), retry: false });
  // Revisions are written by a sync: a catalog change may bring one.
  useEffect(() => onCatalogChange(() => void qc.invalidateQueries({ queryKey: [op, { id }] })), [qc, op, id]);
  return q.data ? latestRulesEdit(q.data.revisions) : undefined;
}

/**
 * The rules text, with "Rules edited <age>" above it when the last edit is recent; "Show
 * changes" swaps the text for the word diff of that edit (whose after side is the text).
 */
export function RulesText({ kind, id, text }: { kind: 'market' | 'event'; id: string; text: string | undefined }) {
  const edit = useRulesEdit(kind, id);
  const now = useNow(60_000);
  const [open, setOpen] = useState(false);
  const recent = edit !== undefined && now - Date.parse(edit.at) <= RECENT_MS;
  const plain = text ? <p className="detail-text prewrap">{text}</p> : <p className="muted">No rules text published.</p>;
  if (!recent) return plain;
  return (
    <>
      <div className="rules-edited" data-testid="rules-edited">
        <span className="rules-edited-badge" title={`Edited ${fmtDateTime(edit.at)}`}>
          Rules edited {fmtAgo(edit.at, now)}
        </span>
        <button type="button" className="btn btn-quiet" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? 'Hide changes' : 'Show changes'}
        </button>
      </div>
      {open ? <RulesDiff before={edit.before ?? ''} after={edit.after ?? ''} /> : plain}
    </>
  );
}

export function RulesDiff({ before, after }: { before: string; after: string }) {
  const parts = useMemo(() => wordDiff(before, after), [before, after]);
  return (
    <p className="detail-text prewrap rules-diff" data-testid="rules-diff">
      {parts.map((p, i) =>
        p.kind === 'same' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence per diff.
          <span key={i}>{p.text}</span>
        ) : p.kind === 'ins' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <ins key={i} title="Added">
            {p.text}
          </ins>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <del key={i} title="Removed">
            {p.text}
          </del>
        ),
      )}
    </p>
  );
}
