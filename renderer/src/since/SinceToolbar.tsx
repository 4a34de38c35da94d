/** The Since view's bar: the time picker, the time the list starts at, and whether it reads the cache offline. */
import { Segmented } from '../components/Segmented.tsx';
import { fmtAgo, fmtDateTime } from '../format.ts';
import type { SinceRange } from './last-look.ts';

const RANGES = [
  ['last', 'Since last look'],
  ['24h', '24 h'],
  ['7d', '7 days'],
] as const satisfies readonly (readonly [SinceRange, string])[];

export function SincePicker({ range, onRange }: { range: SinceRange; onRange: (r: SinceRange) => void }) {
  return <Segmented label="Show the changes since" options={RANGES} value={range} onChange={onRange} />;
}

export function SinceToolbar(props: {
  range: SinceRange;
  onRange: (r: SinceRange) => void;
  since: number;
  firstLook: boolean;
  busy: boolean;
  now: number;
}) {
  const { since } = props;
  return (
    <div className="toolbar since-toolbar">
      <span className="toolbar-title">Since you last looked</span>
      <SincePicker range={props.range} onRange={props.onRange} />
      <span className="muted" data-testid="since-time">
        {props.firstLook ? 'First look: the last 24 hours, ' : 'Changes since '}
        <time dateTime={new Date(since).toISOString()}>{fmtDateTime(new Date(since).toISOString())}</time> ({fmtAgo(since, props.now)})
      </span>
      {props.busy ? <span className="since-busy muted">Updating…</span> : null}
    </div>
  );
}
