/**
 * A toolbar (ARIA toolbar pattern): its buttons are one Tab stop, the arrow keys (and Home/End)
 * move between them. The roving tabindex is kept on the DOM, so any button inside counts (a
 * star, an alert button, a link button) without each knowing it is in a toolbar.
 */
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const ITEMS = 'button:not([disabled]), a[href]';

export function Toolbar({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const current = useRef(0);
  // A dialog a button opens (the alert dialog) renders inside it: its controls are not the toolbar's.
  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>(ITEMS) ?? [])].filter((el) => !el.closest('dialog'));
  const rove = (to: number) => {
    const all = items();
    if (all.length === 0) return;
    current.current = Math.max(0, Math.min(all.length - 1, to));
    all.forEach((el, i) => {
      el.tabIndex = i === current.current ? 0 : -1;
    });
    return all[current.current];
  };
  // Each render may bring other buttons (a count badge, a second link): one stays the Tab stop.
  useEffect(() => {
    rove(current.current);
  });
  const onKeyDown = (e: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(e.target as HTMLElement);
    if (at < 0) return;
    const to = ({ ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: all.length - 1 } as Record<string, number>)[e.key];
    if (to === undefined) return;
    e.preventDefault();
    rove(to)?.focus();
  };
  return (
    <div
      ref={ref}
      role="toolbar"
      aria-label={label}
      className={className}
      onKeyDown={onKeyDown}
      onFocus={(e) => {
        const at = items().indexOf(e.target as HTMLElement);
        if (at >= 0) rove(at);
      }}
    >
      {children}
    </div>
  );
}
