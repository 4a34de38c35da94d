// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRule, FiredAlert } from '../alerts/describe.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// An in-memory alerts service behind `call`, and the push events under the test's control.
const svc = vi.hoisted(() => ({
  mode: 'web' as 'web' | 'desktop',
  rules: [] as AlertRule[],
  fired: [] as FiredAlert[],
  calls: [] as string[],
  listeners: new Map<string, (p: unknown) => void>(),
}));

vi.mock('../api.ts', async (importActual) => {
  const actual = await importActual<typeof import('../api.ts')>();
  return {
    ...actual,
    get mode() {
      return svc.mode;
    },
    call: async (op: string, p: { id?: string }) => {
      svc.calls.push(op);
      if (op === 'alerts.list') return { rules: svc.rules };
      if (op === 'alerts.fired') return { total: svc.fired.length, fired: svc.fired };
      if (op === 'screens.list') return { screens: [] };
      if (op === 'alerts.remove') {
        svc.rules = svc.rules.filter((r) => r.id !== p.id);
        return { rules: svc.rules };
      }
      throw new Error(`unexpected ${op}`);
    },
  };
});
vi.mock('../push.ts', () => ({
  subscribe: (event: string, fn: (p: unknown) => void) => {
    svc.listeners.set(event, fn);
    return () => svc.listeners.delete(event);
  },
  onConnection: () => () => {},
}));

/** The Notifications API as a test double: what was shown, and the permission the "user" gave. */
class FakeNotification {
  static permission: NotificationPermission = 'default';
  static shown: FakeNotification[] = [];
  static requestPermission = vi.fn(async () => {
    FakeNotification.permission = 'granted';
    return 'granted' as const;
  });
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}
(globalThis as { Notification?: unknown }).Notification = FakeNotification;

const { AlertsProvider } = await import('../alerts/AlertsProvider.tsx');
const { Tabs } = await import('../shell/Tabs.tsx');
const { NavProvider, useNav } = await import('../nav.tsx');
const { DEFAULT_UI, UiStateProvider, useUi } = await import('../ui-state.tsx');
const { AlertsView } = await import('./Alerts.tsx');

const market = { id: '12', slug: 'fed', question: 'Fed cuts in December?' };
const RULE: AlertRule = {
  id: 'r1',
  kind: 'price_cross',
  level: 0.6,
  direction: 'up',
  market,
  label: 'Fed 60',
  createdAt: 'x',
  lastFiredAt: null,
};
const fired = (id: string, title: string): FiredAlert => ({
  id,
  ruleId: 'r1',
  kind: 'price_cross',
  at: new Date().toISOString(),
  title,
  before: 0.58,
  after: 0.63,
  market,
});

let seen: { nav: ReturnType<typeof useNav>; tab: string };
function Probe() {
  seen = { nav: useNav(), tab: useUi().ui.tab };
  return null;
}

let root: Root;
let host: HTMLElement;
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));
const q = (sel: string) => host.querySelector<HTMLElement>(sel);
const all = (sel: string) => [...host.querySelectorAll<HTMLElement>(sel)];

async function mount(tab: 'markets' | 'alerts', view?: ReactNode) {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (
    <QueryClientProvider client={client}>
      <UiStateProvider initial={{ ...DEFAULT_UI, tab }}>
        <NavProvider>
          <AlertsProvider>
            <Probe />
            <Tabs />
            {view}
          </AlertsProvider>
        </NavProvider>
      </UiStateProvider>
    </QueryClientProvider>
  );
  await act(async () => root.render(tree));
  await settle();
}
const push = async (event: string, payload: unknown) => {
  await act(async () => svc.listeners.get(event)?.(payload));
  await settle();
};

beforeEach(() => {
  Object.assign(svc, { mode: 'web', rules: [RULE], fired: [], calls: [] });
  FakeNotification.permission = 'default';
  FakeNotification.shown = [];
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the Alerts view', () => {
  it('lists the rules and the fired log, newest first, and a fired one opens its market', async () => {
    svc.fired = [fired('f2', 'Fed cuts in December? crossed 60¢ (58¢ → 63¢)'), fired('f1', 'older')];
    await mount('alerts', createElement(AlertsView));
    expect(all('[data-testid="alert-rule"] .alert-rule-label').map((e) => e.textContent)).toEqual(['Fed 60']);
    expect(q('[data-testid="alert-rule"]')?.textContent).toContain('crosses 60¢ ↑');
    expect(q('[data-testid="alert-last-fired"]')?.textContent).toBe('not fired yet');
    expect(all('[data-testid="alert-fired-title"]').map((e) => e.textContent)).toEqual([
      'Fed cuts in December? crossed 60¢ (58¢ → 63¢)',
      'older',
    ]);
    expect(q('.alert-change')?.textContent).toBe('58¢ → 63¢');
    await act(async () => q('[data-testid="alert-fired"] button')!.click());
    expect(seen.nav.detail).toEqual({ kind: 'market', id: '12' });
  });

  it('deletes a rule through the service and follows the push events', async () => {
    await mount('alerts', createElement(AlertsView));
    await act(async () => q('[aria-label="Delete alert Fed 60"]')!.click());
    await settle();
    expect(svc.calls).toContain('alerts.remove');
    expect(all('[data-testid="alert-rule"]')).toEqual([]);
    expect(q('[aria-labelledby="alerts-rules-h"] .alert-empty')?.textContent).toContain('No alerts yet');

    // Another window adds one: the `alerts` event carries the whole list.
    await push('alerts', { rules: [{ ...RULE, id: 'r2', label: 'From elsewhere' }] });
    expect(all('[data-testid="alert-rule"] .alert-rule-label').map((e) => e.textContent)).toEqual(['From elsewhere']);
    // A firing refetches the log.
    svc.fired = [fired('f9', 'Just fired')];
    await push('alert', svc.fired[0]);
    expect(all('[data-testid="alert-fired-title"]').map((e) => e.textContent)).toEqual(['Just fired']);
    // Seen as it arrived: no badge while the view is open.
    expect(q('[data-testid="alerts-unseen"]')).toBeNull();
  });

  it('asks for notification permission only on the user’s click', async () => {
    await mount('alerts', createElement(AlertsView));
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    const ask = all('button').find((b) => b.textContent === 'Enable notifications')!;
    await act(async () => ask.click());
    await settle();
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(q('[data-testid="notify-state"]')?.textContent).toBe('Notifications on');
  });
});

describe('a firing elsewhere in the app', () => {
  it('counts on the tab until the view is shown', async () => {
    await mount('markets');
    await push('alert', fired('f1', 'one'));
    await push('alert', fired('f2', 'two'));
    expect(q('[data-testid="alerts-unseen"]')?.textContent).toBe('2');
    await act(async () =>
      all('[role="tab"]')
        .find((t) => t.id === 'tab-alerts')!
        .click(),
    );
    expect(seen.tab).toBe('alerts');
    expect(q('[data-testid="alerts-unseen"]')).toBeNull();
  });

  it('web mode, allowed: one notification, whose click opens the market in the Alerts view', async () => {
    FakeNotification.permission = 'granted';
    await mount('markets');
    await push('alert', fired('f1', 'Fed cuts in December? crossed 60¢ (58¢ → 63¢)'));
    expect(FakeNotification.shown.map((n) => [n.title, n.options.body, n.options.tag])).toEqual([
      ['Fed cuts in December? crossed 60¢ (58¢ → 63¢)', 'Price crosses · 58¢ → 63¢', 'f1'],
    ]);
    await act(async () => FakeNotification.shown[0]!.onclick?.());
    expect(FakeNotification.shown[0]!.closed).toBe(true);
    expect(seen.tab).toBe('alerts');
    expect(seen.nav.detail).toEqual({ kind: 'market', id: '12' });
  });

  it('desktop: a click on main’s notification (alertOpen) opens the market in the Alerts view', async () => {
    svc.mode = 'desktop';
    await mount('markets');
    await push('alertOpen', fired('f1', 'one'));
    expect(seen.tab).toBe('alerts');
    expect(seen.nav.detail).toEqual({ kind: 'market', id: '12' });
  });

  it('shows none when not allowed, nor in the desktop app (its main process notifies)', async () => {
    await mount('markets');
    await push('alert', fired('f1', 'not allowed'));
    act(() => root.unmount());
    host.remove();
    svc.mode = 'desktop';
    FakeNotification.permission = 'granted';
    await mount('markets');
    await push('alert', fired('f2', 'desktop'));
    expect(FakeNotification.shown).toEqual([]);
    expect(q('[data-testid="alerts-unseen"]')?.textContent).toBe('1');
  });
});
