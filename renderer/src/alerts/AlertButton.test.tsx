// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AlertRule } from './describe.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// An in-memory alerts service behind `call`, refusing what the real one refuses for a level.
const svc = vi.hoisted(() => ({ rules: [] as AlertRule[], calls: [] as [string, Record<string, unknown>][] }));

vi.mock('../api.ts', async (importActual) => {
  const actual = await importActual<typeof import('../api.ts')>();
  return {
    ...actual,
    mode: 'web',
    call: async (op: string, p: Record<string, unknown>) => {
      svc.calls.push([op, p]);
      if (op === 'alerts.list') return { rules: svc.rules };
      if (op === 'alerts.create') {
        const level = p['level'] as number | undefined;
        if (p['kind'] === 'price_cross' && !(typeof level === 'number' && level >= 0 && level <= 1)) {
          throw new actual.ApiError(400, { error: 'level must be a number between 0 and 1' });
        }
        const rule = {
          id: `r${svc.rules.length + 1}`,
          kind: p['kind'],
          label: 'made',
          createdAt: 'now',
          lastFiredAt: null,
          market: { id: p['market'] },
        };
        svc.rules.push(rule as AlertRule);
        return rule;
      }
      throw new Error(`unexpected ${op}`);
    },
  };
});

const { AlertButton } = await import('./AlertButton.tsx');

let root: Root;
let host: HTMLElement;
const settle = () => act(async () => new Promise((r) => setTimeout(r, 0)));

async function mount() {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const subject = { kind: 'market', id: '12', title: 'Fed cuts in December?', price: 0.58 } as const;
  await act(async () => root.render(createElement(QueryClientProvider, { client }, createElement(AlertButton, { subject }))));
  await settle();
}
const q = <T extends Element = HTMLElement>(sel: string) => host.querySelector<T & HTMLElement>(sel);
/** A radio by its label's text (the kinds and the Segmented directions are labelled radios). */
const radio = (text: string) =>
  [...host.querySelectorAll('label')].find((l) => l.textContent?.startsWith(text))!.querySelector<HTMLInputElement>('input[type="radio"]')!;
function type(input: HTMLInputElement, value: string) {
  // React listens to the native value setter plus an input event.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}
async function submit() {
  await act(async () => q<HTMLFormElement>('dialog form')!.requestSubmit());
  await settle();
}

beforeEach(() => {
  svc.rules = [];
  svc.calls = [];
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the Alert button of a market panel', () => {
  it('opens a dialog with the market’s kinds, the level prefilled with its price in cents', async () => {
    await mount();
    expect(q('dialog')).toBeNull();
    await act(async () => q('.alert-btn')!.click());
    expect(q('dialog')?.getAttribute('aria-label')).toBe('New alert');
    expect(q('.alert-subject')?.textContent).toBe('Fed cuts in December?');
    expect([...host.querySelectorAll('.alert-kind-name')].map((e) => e.textContent)).toEqual([
      'Price crosses',
      'Price moves',
      'Ends soon',
      'Rules edited',
    ]);
    expect(q<HTMLInputElement>('input[aria-label="Level"]')!.value).toBe('58');
  });

  it('shows the service’s 400 inline and keeps the dialog; a good level creates the rule and closes it', async () => {
    await mount();
    await act(async () => q('.alert-btn')!.click());
    await act(async () => type(q<HTMLInputElement>('input[aria-label="Level"]')!, '140'));
    await submit();
    expect(q('[data-testid="alert-error"]')?.textContent).toBe('level must be a number between 0 and 1');
    expect(q('dialog')).not.toBeNull();
    expect(svc.rules).toEqual([]);

    await act(async () => type(q<HTMLInputElement>('input[aria-label="Level"]')!, '60'));
    await act(async () => radio('Up').click());
    await submit();
    expect(svc.calls.filter(([op]) => op === 'alerts.create').at(-1)?.[1]).toEqual({
      kind: 'price_cross',
      market: '12',
      level: 0.6,
      direction: 'up',
    });
    expect(q('dialog')).toBeNull();
    // The rule list is read again: the button now counts the market's rule.
    await settle();
    expect(q('[data-testid="alert-count"]')?.textContent).toBe('1');
  });

  it('switches to a move alert and sends its points and window', async () => {
    await mount();
    await act(async () => q('.alert-btn')!.click());
    await act(async () => radio('Price moves').click());
    expect(q('input[aria-label="Level"]')).toBeNull();
    await act(async () => type(q<HTMLInputElement>('input[aria-label="Points"]')!, '10'));
    await act(async () => type(q<HTMLInputElement>('input[aria-label="Within"]')!, '6'));
    await submit();
    expect(svc.calls.find(([op]) => op === 'alerts.create')?.[1]).toEqual({
      kind: 'price_move',
      market: '12',
      points: 0.1,
      window_hours: 6,
    });
  });
});
