/**
 * Alerts across the app: keeps the rules and the fired log current from the push events
 * (`alerts` carries the rule list, `alert` one firing), counts the firings not yet seen in the
 * Alerts view (the tab's badge), and in web mode turns each firing into a notification whose
 * click opens its market in the Alerts view's side panel. The desktop app's notifications are
 * main's; their click arrives as the `alertOpen` event and opens the market the same way.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNav } from '../nav.tsx';
import { subscribe } from '../push.ts';
import { useUi } from '../ui-state.tsx';
import { mode } from '../api.ts';
import { type FiredAlert, firedTarget } from './describe.ts';
import { notifyFired } from './notify.ts';
import './alerts.css';
import { FIRED_KEY, RULES_KEY } from './useAlerts.ts';

const UnseenContext = createContext(0);

/** Firings since the Alerts view was last shown (0 outside the provider). */
export function useUnseenAlerts(): number {
  return useContext(UnseenContext);
}

export function AlertsProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const nav = useNav();
  const { ui } = useUi();
  const [unseen, setUnseen] = useState(0);
  const watching = ui.tab === 'alerts';
  // Read by the push listener, which is set up once.
  const latest = useRef({ nav, watching });
  latest.current = { nav, watching };

  useEffect(() => {
    if (watching) setUnseen(0);
  }, [watching]);

  useEffect(() => {
    /** Opens a firing's market (or event) in the Alerts view's side panel. */
    const show = (fired: FiredAlert) => {
      const to = firedTarget(fired);
      if (to) latest.current.nav.open(to.kind, to.id, { tab: 'alerts' });
      else latest.current.nav.showTab('alerts');
    };
    const offs = [
      subscribe('alerts', (list) => {
        if (Array.isArray(list?.rules)) queryClient.setQueryData(RULES_KEY, list);
      }),
      subscribe('alert', (fired) => {
        void queryClient.invalidateQueries({ queryKey: FIRED_KEY });
        // A firing moves the rule's lastFiredAt; the `alerts` event says so too, this is a safety net.
        void queryClient.invalidateQueries({ queryKey: RULES_KEY });
        if (!latest.current.watching) setUnseen((n) => n + 1);
        notifyFired(fired, () => show(fired));
      }),
      // Desktop: main's notification was clicked (the page shows none of its own).
      ...(mode === 'desktop' ? [subscribe('alertOpen', show)] : []),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [queryClient]);

  return <UnseenContext.Provider value={unseen}>{children}</UnseenContext.Provider>;
}

/** The Alerts tab's badge: how many fired since the view was last open; nothing at zero. */
export function UnseenBadge() {
  const n = useUnseenAlerts();
  if (n === 0) return null;
  return (
    <span className="tab-badge" data-testid="alerts-unseen" aria-hidden="true">
      {n > 99 ? '99+' : n}
    </span>
  );
}
