/**
 * The side panel's frame: kind, status badge, close button, and the scrolling body. Esc closes
 * it too (App.tsx). Below 1280 px wide it overlays the grid instead of squeezing it (panel.css).
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { useNav } from '../nav.tsx';
import './panel.css';

export function PanelShell({
  label,
  status,
  children,
  item,
}: {
  label: string;
  status?: ReactNode;
  children: ReactNode;
  /** What the panel shows (kind and id): another item starts at its top, not where the last one was scrolled to. */
  item?: string;
}) {
  const nav = useNav();
  const body = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the item changes, which it does not read.
  useLayoutEffect(() => {
    if (body.current) body.current.scrollTop = 0;
  }, [item]);
  return (
    <aside className="detail panel-shell" aria-label={label} data-testid="detail">
      <div className="detail-head">
        <span className="detail-kind">{label}</span>
        {status}
        <span className="toolbar-spacer" />
        <button type="button" className="icon-btn" aria-label="Close detail (Esc)" title="Close (Esc)" onClick={nav.close}>
          ×
        </button>
      </div>
      <div className="detail-body" ref={body} data-testid="detail-body">
        {children}
      </div>
    </aside>
  );
}

export function PanelLoading({ error, label }: { error: Error | null; label: string }) {
  return (
    <PanelShell label={label}>
      <p className="muted">{error ? `Could not load: ${error.message}` : 'Loading…'}</p>
    </PanelShell>
  );
}
