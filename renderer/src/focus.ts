/**
 * Where the keyboard's focus goes when the view changes: Alt+N puts it in the view's main list
 * (the grid), so the arrows work at once; a row or result opened with Enter puts it in the side
 * panel (PanelShell), and Esc gives it back to what opened it (nav.tsx).
 */

/** The main list of the view shown: a grid (DataGrid marks it), else the view's first row control. */
const MAIN_LIST = '#view [data-main-list]';
const FIRST_ROW_CONTROL = '#view tbody button:not([disabled]), #view tbody a[href], #view [role="list"] button:not([disabled])';
/** Frames a new view may take to mount its list (its first render is synchronous; a lazy one is not). */
const WAIT_FRAMES = 30;

/** Focuses `tab`'s main list once that view is shown (a few frames at most); else the view itself. */
export function focusMainList(tab: string): void {
  let frames = 0;
  const attempt = () => {
    // Until the new view renders, the old one's list is still there.
    const shown = document.querySelector<HTMLElement>('.app')?.dataset['tab'] === tab;
    const el = !shown ? null : (document.querySelector<HTMLElement>(MAIN_LIST) ?? document.querySelector<HTMLElement>(FIRST_ROW_CONTROL));
    if (el) return el.focus({ preventScroll: true });
    if (++frames < WAIT_FRAMES) return void requestAnimationFrame(attempt);
    if (shown) document.querySelector<HTMLElement>('#view')?.focus({ preventScroll: true });
  };
  attempt();
}

/**
 * Whether the current event is a keyboard activation (Enter): a row or result opened by Enter
 * takes the focus into the panel, while one followed by the arrows (the panel tracks the active
 * row) leaves it in the grid. Set in the capture phase, so it is known before any handler runs,
 * and cleared once the event's handlers are done.
 */
let activating = false;
let installed = false;

export function trackKeyActivation(): void {
  if (installed) return;
  installed = true;
  window.addEventListener(
    'keydown',
    (e) => {
      if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey) return;
      activating = true;
      setTimeout(() => {
        activating = false;
      }, 0);
    },
    { capture: true },
  );
}

export const isKeyActivation = (): boolean => activating;

/** The focusable elements of `root`, in document order (what Tab visits). */
export const FOCUSABLE = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';
