/**
 * State that starts over when `key` changes: a pager's offset reset by a new filter, for one.
 * It resets during render (React's "adjusting state when a prop changes"), so the first
 * render with the new key already sees the initial value: an effect would render once, and
 * fetch once, with the stale value first.
 */
import { useState, type Dispatch, type SetStateAction } from 'react';

export function useKeyedState<S>(key: string, initial: S): [S, Dispatch<SetStateAction<S>>] {
  const [state, setState] = useState({ key, value: initial });
  const current = state.key === key ? state.value : initial;
  if (state.key !== key) setState({ key, value: initial });
  const set: Dispatch<SetStateAction<S>> = (next) =>
    setState((s) => {
      const base = s.key === key ? s.value : initial;
      return { key, value: typeof next === 'function' ? (next as (prev: S) => S)(base) : next };
    });
  return [current, set];
}
