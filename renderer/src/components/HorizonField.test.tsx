// @vitest-environment happy-dom
import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { HorizonField, horizonText, horizonValid, horizonValue } from './HorizonField.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** The field in a parent that keeps its value, as the settings dialog's draft does. */
function mount(initial: string) {
  const seen: string[] = [];
  function Parent() {
    const [v, setV] = useState(initial);
    return createElement(HorizonField, {
      value: v,
      onChange: (x: string) => {
        seen.push(x);
        setV(x);
      },
    });
  }
  const host = document.createElement('div');
  const root = createRoot(host);
  act(() => root.render(createElement(Parent)));
  const radios = () => [...host.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  const days = () => host.querySelector<HTMLInputElement>('input.horizon-days')!;
  return { host, seen, radios, days, unmount: () => act(() => root.unmount()) };
}

describe('horizon setting', () => {
  it('reads and writes 7 days by default, a number of days, or all', () => {
    expect(horizonText(undefined)).toBe('7');
    expect(horizonText(30)).toBe('30');
    expect(horizonText('all')).toBe('all');
    expect(horizonValue('all')).toBe('all');
    expect(horizonValue('30')).toBe(30);
    expect(['0', '7', '36500', 'all'].every(horizonValid)).toBe(true);
    expect(['', '-1', '1.5', '36501', 'ALL', 'seven'].some(horizonValid)).toBe(false);
  });

  it('switches to the whole history and back to the days typed before', () => {
    const f = mount('30');
    expect(f.radios().map((r) => r.checked)).toEqual([true, false]);
    expect(f.days().value).toBe('30');
    act(() => f.radios()[1]!.click());
    expect(f.seen.at(-1)).toBe('all');
    expect(f.radios().map((r) => r.checked)).toEqual([false, true]);
    expect(f.days().disabled).toBe(true);
    act(() => f.radios()[0]!.click());
    expect(f.seen.at(-1)).toBe('30');
    expect(f.days().disabled).toBe(false);
    f.unmount();
  });

  it('flags a number of days out of range', () => {
    const f = mount('99999');
    expect(f.days().getAttribute('aria-invalid')).toBe('true');
    expect(f.host.textContent).toMatch(/0 to 36500/);
    f.unmount();
  });
});
