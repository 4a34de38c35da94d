/**
 * The side panel's frame: kind, status badge, close button, and the scrolling body. Esc closes
 * it too (App.tsx). Below 1280 px wide it overlays the grid instead of squeezing it (panel.css).
 */
import type { ReactNode } from 'react';
import { useNav } from '../nav.tsx';
import './panel.css';

export function PanelShell({ label, status, children }: { label: string; status?: ReactNode; children: ReactNode }) {
  const nav = useNav();
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
      <div className="detail-body">{children}</div>
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
