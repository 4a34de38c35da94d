/**
 * "Since you last looked": the change feed since the last look (or the last 24 h or 7 days),
 * grouped into new markets, resolutions, biggest movers and rule edits, the user's own markets
 * first in each. One click opens an item in the side panel. The last look moves when the user
 * leaves the view (since/last-look.ts), so the list stays put while it is read.
 */
import { EditDetail, MoverDetail, NewDetail, ResolvedDetail } from '../since/details.tsx';
import { SinceGroup } from '../since/SinceGroup.tsx';
import { OfflineNote, SinceEmpty, SinceError } from '../since/SinceStates.tsx';
import { SinceToolbar } from '../since/SinceToolbar.tsx';
import type { SinceRange } from '../since/last-look.ts';
import { useLastLook } from '../since/useLastLook.ts';
import { useSinceFeed } from '../since/useSinceFeed.ts';
import { useNow } from '../hooks/useNow.ts';
import { useUi } from '../ui-state.tsx';
import '../since/Since.css';

export function SinceView() {
  const { ui, setUi } = useUi();
  const { range, lastLook } = ui.since;
  const { state, since } = useSinceFeed(range, lastLook);
  useLastLook(state.kind === 'ready' && state.current ? state.answer : undefined);
  const now = useNow(60_000);
  const onRange = (r: SinceRange) => setUi((s) => ({ ...s, since: { ...s.since, range: r } }));
  const g = state.kind === 'ready' ? state.groups : undefined;
  const empty = g && g.newMarkets.length + g.resolved.length + g.movers.length + g.edits.length === 0;
  return (
    <section className="view since-view" aria-label="Since you last looked" data-state={state.kind} data-testid="since-view">
      <SinceToolbar
        range={range}
        onRange={onRange}
        since={since}
        firstLook={range === 'last' && lastLook === null}
        busy={state.kind === 'ready' && state.busy}
        now={now}
      />
      <div className="since-body">
        <OfflineNote now={now} />
        {state.kind === 'loading' ? <p className="since-loading muted">Reading the change feed…</p> : null}
        {state.kind === 'error' ? <SinceError error={state.error} retry={state.retry} /> : null}
        {empty && state.kind === 'ready' ? (
          <SinceEmpty since={since} watchingSince={state.answer.watchingSince} range={range} onRange={onRange} />
        ) : null}
        {g && !empty ? (
          <div className="since-groups">
            <SinceGroup
              id="new"
              title="New markets"
              items={g.newMarkets}
              now={now}
              none="No new markets."
              detail={(i) => <NewDetail item={i} />}
            />
            <SinceGroup
              id="resolved"
              title="Resolved"
              items={g.resolved}
              now={now}
              none="None resolved."
              detail={(i) => <ResolvedDetail item={i} />}
            />
            <SinceGroup
              id="movers"
              title="Biggest movers"
              items={g.movers}
              now={now}
              none="No moves of 5 points."
              detail={(i) => <MoverDetail item={i} />}
            />
            <SinceGroup
              id="edits"
              title="Rule edits"
              items={g.edits}
              now={now}
              none="No rules or end dates edited."
              detail={(i) => <EditDetail item={i} />}
            />
          </div>
        ) : null}
        {state.kind === 'ready' && state.answer.truncated ? (
          <p className="since-note muted">A kind had more than 1,000 changes: its newest 1,000 are grouped.</p>
        ) : null}
      </div>
    </section>
  );
}
