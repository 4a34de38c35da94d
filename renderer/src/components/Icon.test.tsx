// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Icon, holdIcons } from './Icon.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('Icon', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const mount = () => {
    const box = document.createElement('div');
    const root = createRoot(box);
    const img = () => box.querySelector('img')!;
    return { root, img };
  };

  it('asks for the picture at once by default', () => {
    const { root, img } = mount();
    act(() => root.render(createElement(Icon, { kind: 'market', id: '1' })));
    expect(img().getAttribute('src')).toMatch(/icons\/market\/1$/);
  });

  it('with settleMs, asks only once the row stayed that long; a row that moves on never asks', () => {
    const { root, img } = mount();
    act(() => root.render(createElement(Icon, { kind: 'market', id: '2', settleMs: 150 })));
    expect(img().getAttribute('src')).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    // The recycled row shows another market before the first one settled.
    act(() => root.render(createElement(Icon, { kind: 'market', id: '3', settleMs: 150 })));
    act(() => vi.advanceTimersByTime(100));
    expect(img().getAttribute('src')).toBeNull();
    act(() => vi.advanceTimersByTime(50));
    expect(img().getAttribute('src')).toMatch(/icons\/market\/3$/);
  });

  it('while held (a grid loading a new sort or filter), a settled icon waits; released, it asks', () => {
    const { root, img } = mount();
    act(() => root.render(createElement(Icon, { kind: 'market', id: '6', settleMs: 150 })));
    const release = holdIcons();
    act(() => vi.advanceTimersByTime(200));
    expect(img().getAttribute('src')).toBeNull();
    act(() => release());
    expect(img().getAttribute('src')).toMatch(/icons\/market\/6$/);
    // Released once: a second call does not release another hold.
    const other = holdIcons();
    act(() => release());
    act(() => root.render(createElement(Icon, { kind: 'market', id: '7', settleMs: 150 })));
    act(() => vi.advanceTimersByTime(200));
    expect(img().getAttribute('src')).toBeNull();
    act(() => other());
    expect(img().getAttribute('src')).toMatch(/icons\/market\/7$/);
  });

  it('shows a picture it has loaded before without waiting', () => {
    const { root, img } = mount();
    act(() => root.render(createElement(Icon, { kind: 'event', id: '4', settleMs: 150 })));
    act(() => vi.advanceTimersByTime(150));
    act(() => img().dispatchEvent(new Event('load')));
    act(() => root.render(createElement(Icon, { kind: 'event', id: '5', settleMs: 150 })));
    act(() => root.render(createElement(Icon, { kind: 'event', id: '4', settleMs: 150 })));
    expect(img().getAttribute('src')).toMatch(/icons\/event\/4$/);
  });
});
