/**
 * The last look, as the open Since view moves it (last-look.ts): each answer shown marks how far
 * the user has seen; leaving the view (the component unmounts) makes that the last look. Closing
 * the app with the view open leaves `seen` in the saved state, and the next start promotes it.
 */
import { useEffect } from 'react';
import { useUi } from '../ui-state.tsx';
import type { FeedAnswer } from './feed.ts';
import { leaveView, markSeen, type SinceState, seenMark } from './last-look.ts';

export function useLastLook(shown: FeedAnswer | undefined): void {
  const { setUi } = useUi();
  useEffect(() => {
    if (!shown) return;
    const mark = seenMark(shown.fetchedAt, shown.syncRunning, shown.newestAt);
    setUi((s) => withSince(s, markSeen(s.since, mark)));
  }, [shown, setUi]);
  useEffect(() => () => setUi((s) => withSince(s, leaveView(s.since))), [setUi]);
}

/** The same state object when nothing moved, so nothing re-renders or is saved. */
function withSince<S extends { since: SinceState }>(s: S, since: SinceState): S {
  return since === s.since ? s : { ...s, since };
}
