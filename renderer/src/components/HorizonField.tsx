/**
 * The settings dialog's horizon: closed markets and events are kept a number of days after they
 * close (7 by default, as `npm run serve`), or all of them (`--horizon-days all`): the core then
 * walks the whole closed history once, in the background.
 */
import { useState } from 'react';
import './HorizonField.css';
import { DEFAULT_HORIZON_DAYS, MAX_HORIZON_DAYS } from '../../../src/contract/bridge.ts';

/** The field's text: 'all' or a number of days as typed. */
export const horizonText = (v: number | 'all' | undefined): string => String(v ?? DEFAULT_HORIZON_DAYS);
export const horizonValid = (v: string): boolean => v === 'all' || (/^\d{1,5}$/.test(v) && Number(v) <= MAX_HORIZON_DAYS);
export const horizonValue = (v: string): number | 'all' => (v === 'all' ? 'all' : Number(v));

export function HorizonField({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const all = value === 'all';
  // The days typed, kept while "all history" is chosen so switching back restores them.
  const [days, setDays] = useState(all ? String(DEFAULT_HORIZON_DAYS) : value);
  return (
    <div className="form-field horizon-field" role="radiogroup" aria-label="Closed markets and events to keep">
      <span>Closed markets and events</span>
      <label className="check-field">
        <input type="radio" name="horizon" checked={!all} onChange={() => onChange(days)} />
        <span>Keep for</span>
        <input
          className="horizon-days"
          inputMode="numeric"
          aria-label="Days to keep closed markets and events"
          aria-invalid={!all && !horizonValid(value)}
          value={all ? days : value}
          disabled={all}
          onChange={(e) => {
            setDays(e.target.value);
            onChange(e.target.value);
          }}
        />
        <span>days after they close</span>
      </label>
      <label className="check-field">
        <input type="radio" name="horizon" checked={all} onChange={() => onChange('all')} />
        <span>Keep the whole history: every closed market and event, downloaded once in the background (the cache grows to gigabytes)</span>
      </label>
      {!all && !horizonValid(value) ? <p className="form-error">A whole number of days, 0 to {MAX_HORIZON_DAYS}</p> : null}
    </div>
  );
}
