/**
 * The side panel's frame: kind, status badge, close button, and the scrolling body. Esc closes
 * it too (App.tsx). Below 1280 px wide it overlays the view, and the grid fits to what is left uncovered (panel.css);
 * what it then covers is made inert, so no Tab stop hides under it. Opened with Enter, it takes
 * the focus (its title, then Tab reaches its controls); closed, the focus goes back (nav.tsx).
 */
import { useEffect, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useNav } from '../nav.tsx';
import { FOCUSABLE } from '../focus.ts';
import './panel.css';

/** An element counts as covered when at least this share of it lies under the panel. */
const COVERED = 0.5;

function coveredShare(r: DOMRect, p: DOMRect): number {
  const w = Math.max(0, Math.min(r.right, p.right) - Math.max(r.left, p.left));
  const h = Math.max(0, Math.min(r.bottom, p.bottom) - Math.max(r.top, p.top));
  return r.width * r.height > 0 ? (w * h) / (r.width * r.height) : 0;
}

/**
 * While the panel overlays the view (position: absolute), the view's focusable elements mostly
 * under it are `inert` (no focus, no click); checked again as the layout or the view changes.
 */
function useInertUnder(panel: React.RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const aside = panel.current;
    const view = aside?.parentElement;
    if (!aside || !view) return;
    let marked: HTMLElement[] = [];
    let frame = 0;
    const update = () => {
      frame = 0;
      for (const el of marked) el.inert = false;
      marked = [];
      if (getComputedStyle(aside).position !== 'absolute') return;
      const p = aside.getBoundingClientRect();
      for (const el of view.querySelectorAll<HTMLElement>(FOCUSABLE)) {
        if (aside.contains(el)) continue;
        if (coveredShare(el.getBoundingClientRect(), p) >= COVERED) {
          el.inert = true;
          marked.push(el);
        }
      }
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    schedule();
    const resize = new ResizeObserver(schedule);
    resize.observe(view);
    resize.observe(aside);
    // New controls (a filter bar's, a header's) appear as the view renders. A grid's rows change on
    // every scroll frame and hold no control on the panel's side (the star is at the left): skipped.
    const mutations = new MutationObserver((records) => {
      if (records.some((r) => !(r.target instanceof Element && r.target.closest('.grid-canvas')))) schedule();
    });
    mutations.observe(view, { childList: true, subtree: true });
    return () => {
      if (frame) cancelAnimationFrame(frame);
      resize.disconnect();
      mutations.disconnect();
      for (const el of marked) el.inert = false;
    };
  }, [panel]);
}

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
  const aside = useRef<HTMLElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the item changes, which it does not read.
  useLayoutEffect(() => {
    if (body.current) body.current.scrollTop = 0;
  }, [item]);
  // Opened with Enter: the focus comes in once the item is shown, on its title (read first, then Tab).
  const { takePanelFocus, panelFocus } = nav;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new request (panelFocus) is what it runs on.
  useEffect(() => {
    if (item === undefined || !takePanelFocus()) return;
    const target = aside.current?.querySelector<HTMLElement>('[data-testid="detail-title"]') ?? aside.current;
    if (target && !target.hasAttribute('tabindex')) target.tabIndex = -1;
    target?.focus({ preventScroll: true });
  }, [item, panelFocus, takePanelFocus]);
  useInertUnder(aside);
  // On the title (where Enter lands), ↑ and ↓ go on walking the rows: the focus goes back to the
  // grid with the key, and the panel follows the row as before. Tab goes on into the panel.
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if ((e.key !== 'ArrowDown' && e.key !== 'ArrowUp') || e.altKey || e.ctrlKey || e.metaKey) return;
    if (!(e.target instanceof HTMLElement) || e.target.dataset['testid'] !== 'detail-title') return;
    const grid = nav.focusOpener();
    if (!grid) return;
    e.preventDefault();
    grid.dispatchEvent(new window.KeyboardEvent('keydown', { key: e.key, shiftKey: e.shiftKey, bubbles: true, cancelable: true }));
  };
  return (
    <aside ref={aside} className="detail panel-shell" aria-label={label} data-testid="detail" tabIndex={-1} onKeyDown={onKeyDown}>
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
