/**
 * The form that saves a screen (POST /screens): a name and the common filters (chance, volume,
 * 24h volume, end window, tags, text, watchlist, orders), each left out when empty. The service
 * checks them (a min above its max is its 400, shown here) and answers the saved screen.
 */
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Screen, ScreenKind } from '../../../src/contract/screens-ops.ts';
import { call } from '../api.ts';

type Fields = Record<string, string>;

const MARKET_ONLY = new Set(['chanceMin', 'chanceMax']);

/** The form's fields as screen params: percents to 0..1, days to hours, empty ones left out. */
export function screenParams(f: Fields, kind: ScreenKind): Record<string, string | boolean | string[]> {
  const p: Record<string, string | boolean | string[]> = {};
  const num = (k: string, param: string, scale = 1) => {
    const v = f[k]?.trim();
    if (v && (kind === 'markets' || !MARKET_ONLY.has(k))) p[param] = String(Number(v) * scale);
  };
  num('chanceMin', 'md_chance_min', 0.01);
  num('chanceMax', 'md_chance_max', 0.01);
  num('volumeMin', 'md_volume_min');
  num('volume24Min', 'md_volume24h_min');
  num('endsDays', 'md_ends_within_hours', 24);
  const tags = (k: string) => (f[k] ?? '').split(/[\s,]+/).filter(Boolean);
  if (tags('tags').length) p['md_tag'] = tags('tags');
  if (tags('notTags').length) p['md_not_tag'] = tags('notTags');
  if (f['text']?.trim()) p['md_q'] = f['text'].trim();
  if (f['watchlist'] === 'on') p['md_watchlist'] = true;
  if (f['orders'] === 'on') p['md_has_orders'] = true;
  return p;
}

const INPUTS: [key: string, label: string, markets?: true][] = [
  ['chanceMin', 'Chance ≥ %', true],
  ['chanceMax', 'Chance ≤ %', true],
  ['volumeMin', 'Volume ≥'],
  ['volume24Min', '24h volume ≥'],
  ['endsDays', 'Ends within (days)'],
  ['tags', 'Tags'],
  ['notTags', 'Not tags'],
  ['text', 'Text'],
];

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
      {INPUTS.filter(([, , m]) => !m || kind === 'markets').map(([k, label]) => (
        <label key={k}>
          {label} <input aria-label={label} value={f[k] ?? ''} onChange={(e) => set(k, e.target.value)} />
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
