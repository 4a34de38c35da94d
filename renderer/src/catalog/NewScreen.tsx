/**
 * The form that saves a screen (POST /screens) of either listing: a name and the filters that
 * listing takes (FIELDS: chance, 24h change and spread for markets only; volume, 24h volume, liquidity, end dates, "ends
 * within", tags, text, watchlist and orders for both), each left out when empty. The service checks
 * them (a min above its max is its 400, shown here) and answers the saved screen.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ScreenKind } from '../../../src/contract/enums.ts';
import type { Screen } from '../../../src/contract/screens-ops.ts';
import { call } from '../api.ts';

type Fields = Record<string, string>;
type Params = Record<string, string | boolean | string[]>;

interface Field {
  key: string;
  label: string;
  /** The listing parameter and how the typed value becomes it (percent to 0..1, days to hours, ...). */
  param: string;
  to: (v: string) => string | string[];
  type?: 'date';
  /** Markets only (the chance). */
  markets?: true;
}

const num = (scale: number) => (v: string) => String(Number(v) * scale);
const words = (v: string) => v.split(/[\s,]+/).filter(Boolean);

export const FIELDS: readonly Field[] = [
  { key: 'chanceMin', label: 'Chance ≥ %', param: 'md_chance_min', to: num(0.01), markets: true },
  { key: 'chanceMax', label: 'Chance ≤ %', param: 'md_chance_max', to: num(0.01), markets: true },
  // Points of chance, as the grid's 24h change column reads (-5: down 5 points), and cents.
  { key: 'change24Min', label: '24h change ≥ pts', param: 'md_change24h_min', to: num(0.01), markets: true },
  { key: 'change24Max', label: '24h change ≤ pts', param: 'md_change24h_max', to: num(0.01), markets: true },
  { key: 'spreadMin', label: 'Spread ≥ ¢', param: 'md_spread_min', to: num(0.01), markets: true },
  { key: 'spreadMax', label: 'Spread ≤ ¢', param: 'md_spread_max', to: num(0.01), markets: true },
  { key: 'volumeMin', label: 'Volume ≥', param: 'md_volume_min', to: num(1) },
  { key: 'volume24Min', label: '24h volume ≥', param: 'md_volume24h_min', to: num(1) },
  { key: 'liquidityMin', label: 'Liquidity ≥', param: 'md_liquidity_min', to: num(1) },
  { key: 'endsDays', label: 'Ends within (days)', param: 'md_ends_within_hours', to: num(24) },
  { key: 'endAfter', label: 'Ends after', param: 'md_end_after', to: String, type: 'date' },
  { key: 'endBefore', label: 'Ends before', param: 'md_end_before', to: String, type: 'date' },
  { key: 'tags', label: 'Tags', param: 'md_tag', to: words },
  { key: 'notTags', label: 'Not tags', param: 'md_not_tag', to: words },
  { key: 'text', label: 'Text', param: 'md_q', to: String },
];

const fieldsOf = (kind: ScreenKind) => FIELDS.filter((f) => !f.markets || kind === 'markets');

/** The form's fields as the screen params of `kind`: empty ones (and an empty tag list) left out. */
export function screenParams(f: Fields, kind: ScreenKind): Params {
  const p: Params = {};
  for (const field of fieldsOf(kind)) {
    const v = f[field.key]?.trim();
    if (!v) continue;
    const value = field.to(v);
    if (Array.isArray(value) && value.length === 0) continue;
    p[field.param] = value;
  }
  if (f['watchlist'] === 'on') p['md_watchlist'] = true;
  if (f['orders'] === 'on') p['md_has_orders'] = true;
  return p;
}

export function NewScreen({ kind, onCreated, onCancel }: { kind: ScreenKind; onCreated: (s: Screen) => void; onCancel: () => void }) {
  const [f, setF] = useState<Fields>({});
  const set = (k: string, v: string) => setF((old) => ({ ...old, [k]: v }));
  const save = useMutation({
    mutationFn: () => call('screens.create', { name: f['name'] ?? '', kind, params: JSON.stringify(screenParams(f, kind)) }),
    onSuccess: onCreated,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form className="new-screen" aria-label="New screen" onSubmit={submit}>
      <label>
        Name <input aria-label="Name" required value={f['name'] ?? ''} onChange={(e) => set('name', e.target.value)} />
      </label>
      {fieldsOf(kind).map(({ key, label, type }) => (
        <label key={key}>
          {label} <input aria-label={label} type={type ?? 'text'} value={f[key] ?? ''} onChange={(e) => set(key, e.target.value)} />
        </label>
      ))}
      <label>
        <input type="checkbox" checked={f['watchlist'] === 'on'} onChange={(e) => set('watchlist', e.target.checked ? 'on' : '')} /> On my
        watchlist
      </label>
      <label>
        <input type="checkbox" checked={f['orders'] === 'on'} onChange={(e) => set('orders', e.target.checked ? 'on' : '')} /> I have orders
      </label>
      <button type="submit" disabled={save.isPending}>
        Save
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      {save.error ? (
        <span className="screen-error" role="alert">
          {save.error.message}
        </span>
      ) : null}
    </form>
  );
}
