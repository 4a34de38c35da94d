/**
 * The fields of one rule kind in the alert dialog, in a trader's units: a level in cents, a
 * move in points (cents) within hours, hours before the end. Plain text inputs: the service
 * checks the values and its message shows under the form.
 */
import type { ReactNode } from 'react';
import { quote } from '../../../src/contract/quote.ts';
import { Segmented } from '../components/Segmented.tsx';
import { fmtCents } from '../chance.ts';
import { CROSS_DIRECTIONS } from '../../../src/contract/enums.ts';
import type { AlertForm, AlertSubject, CrossDirection } from './describe.ts';

const DIRECTION_LABEL: Record<CrossDirection, string> = { up: 'Up', down: 'Down', either: 'Either way' };
const DIRECTIONS = CROSS_DIRECTIONS.map((d) => [d, DIRECTION_LABEL[d]] as const);

type Set = (patch: Partial<AlertForm>) => void;

function Num(props: {
  label: string;
  unit: string;
  value: string;
  onChange: (v: string) => void;
  autoFocus?: boolean;
  /** Shown as the field's name when it says more than its accessible label (the outcome). */
  caption?: string;
}) {
  return (
    <label className="alert-num">
      <span>{props.caption ?? props.label}</span>
      <span className="alert-num-box">
        <input
          inputMode="decimal"
          aria-label={props.label}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the field the user came to set, in a dialog they just opened.
          autoFocus={props.autoFocus}
        />
        <span className="alert-unit">{props.unit}</span>
      </span>
    </label>
  );
}

export function AlertFields({ subject, f, set }: { subject: AlertSubject; f: AlertForm; set: Set }): ReactNode {
  // The outcome a price rule watches (the service's: the market's first).
  const outcome = subject.kind === 'market' ? subject.outcome : undefined;
  switch (f.kind) {
    case 'price_cross':
      return (
        <div className="alert-fields">
          <Num
            label="Level"
            caption={outcome ? `${outcome} price level` : 'Level'}
            unit="¢"
            value={f.levelCents}
            onChange={(v) => set({ levelCents: v })}
            autoFocus
          />
          <div className="alert-num">
            <span>Direction</span>
            <Segmented label="Direction" options={DIRECTIONS} value={f.direction} onChange={(direction) => set({ direction })} />
          </div>
          <p className="alert-hint" data-testid="alert-level-hint">
            {subject.kind === 'market' && subject.price !== undefined
              ? `${outcome ?? 'The price'} is now ${fmtCents(subject.price)}. `
              : null}
            Fires once each time {outcome ? `the ${outcome} price` : 'the price'} crosses the level. In ¢ (42 or 42¢; 42% and $0.42 work
            too).
          </p>
        </div>
      );
    case 'price_move':
      return (
        <div className="alert-fields">
          <Num label="Points" unit="pts" value={f.points} onChange={(v) => set({ points: v })} autoFocus />
          <Num label="Within" unit="hours" value={f.windowHours} onChange={(v) => set({ windowHours: v })} />
          <p className="alert-hint">A point is 1¢ of {outcome ? `the ${outcome} price` : "the first outcome's price"}, up or down.</p>
        </div>
      );
    case 'ends_soon':
      return (
        <div className="alert-fields">
          <Num label="Ends within" unit="hours" value={f.hours} onChange={(v) => set({ hours: v })} autoFocus />
        </div>
      );
    case 'rule_edit':
      return <p className="alert-hint">Fires when the question, rules, resolution source, end date or outcomes change.</p>;
    case 'new_match':
      return (
        <p className="alert-hint">
          {subject.kind === 'search'
            ? `Fires when a new market matches ${quote(subject.q)}.`
            : subject.kind === 'screen'
              ? `Fires when a new market enters the screen ${quote(subject.name)}.`
              : 'Fires when a new market matches.'}
        </p>
      );
    default:
      return null;
  }
}
