/**
 * What the app remembers between launches: last tab, filters, sorting and column widths.
 * Desktop: userData/ui-state.json through the bridge; web mode: localStorage.
 */
import { desktop, mode } from './api.ts';

const KEY = 'marketdesk.ui.v1';

export type Persisted = Record<string, unknown>;

export async function loadUiState(): Promise<Persisted> {
  try {
    const raw: unknown = mode === 'desktop' ? await desktop('uiState.load') : JSON.parse(localStorage.getItem(KEY) ?? 'null');
    return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Persisted) : {};
  } catch {
    return {};
  }
}

let timer: ReturnType<typeof setTimeout> | undefined;
let latest: Persisted | undefined;

function flush(): void {
  timer = undefined;
  if (!latest) return;
  const state = latest;
  latest = undefined;
  if (mode === 'desktop') void desktop('uiState.save', state).catch(() => {});
  else {
    try {
      localStorage.setItem(KEY, JSON.stringify(state));
    } catch {
      // Private mode or quota: the app works, it just forgets.
    }
  }
}

/** Debounced: column resizing and typing would otherwise write on every frame. */
export function saveUiState(state: Persisted): void {
  latest = state;
  if (!timer) timer = setTimeout(flush, 400);
}

// A closing window still gets the last change.
if (typeof window !== 'undefined') window.addEventListener('pagehide', flush);
