// @vitest-environment happy-dom
import { act, createElement, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { useKeyedState } from './useKeyedState.ts';

// React's act() warns unless the environment says it is a test.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const seen: [string, number][] = [];
let setKey!: (k: string) => void;
let setValue!: (n: number | ((p: number) => number)) => void;
function Probe() {
  const [key, sk] = useState('a');
  const [value, sv] = useKeyedState(key, 0);
  setKey = sk;
  setValue = sv;
  seen.push([key, value]);
  return null;
}

describe('useKeyedState', () => {
  it('keeps its value while the key stays, and starts over in the same render the key changes', () => {
    const root = createRoot(document.createElement('div'));
    act(() => root.render(createElement(Probe)));
    act(() => setValue(5));
    act(() => setValue((p) => p + 1));
    expect(seen.at(-1)).toEqual(['a', 6]);
    act(() => setKey('b'));
    // No render ever pairs the new key with the old value.
    expect(seen.filter(([k]) => k === 'b').every(([, v]) => v === 0)).toBe(true);
    act(() => setValue(2));
    expect(seen.at(-1)).toEqual(['b', 2]);
    act(() => root.unmount());
  });
});
