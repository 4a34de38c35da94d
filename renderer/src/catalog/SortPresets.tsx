/**
 * The grids' sort presets (issue 27): the sorts a trader asks for by name, each one of the service's
 * `order` fields (MARKET_ORDER_FIELDS, EVENT_ORDER_FIELDS, the same names in both grids) and a
 * direction. "Biggest moves" is the 24h change's size, which no header sorts by; "Ending soon" also
 * leaves out what already passed its end date (sortParams). A header click is a sort of its own: the
 * select then reads "Column sort".
 */
import type { Sort } from '../grid/types.ts';

type Field = 'volume24hr' | 'oneDayPriceChangeSize' | 'oneDayPriceChange' | 'createdAt' | 'endDate' | 'chance';

export const SORT_PRESETS: readonly { label: string; sort: Sort<Field> }[] = [
  { label: 'Top 24h volume', sort: { field: 'volume24hr', desc: true } },
  { label: 'Biggest moves', sort: { field: 'oneDayPriceChangeSize', desc: true } },
  { label: 'Biggest up', sort: { field: 'oneDayPriceChange', desc: true } },
  { label: 'Biggest down', sort: { field: 'oneDayPriceChange', desc: false } },
  { label: 'Highest chance', sort: { field: 'chance', desc: true } },
  { label: 'Newest', sort: { field: 'createdAt', desc: true } },
  { label: 'Ending soon', sort: { field: 'endDate', desc: false, upcoming: true } },
];

const same = (a: Sort, b: Sort) => a.field === b.field && a.desc === b.desc && !!a.upcoming === !!b.upcoming;

/**
 * A sort's listing parameters: `order`, `ascending`, and for "Ending soon" `end_date_min`, now to the
 * minute (so the query, and the rows the service keeps for it, stay the same within a minute).
 */
export function sortParams(sort: Sort, now = Date.now()): Record<string, string | boolean> {
  const p: Record<string, string | boolean> = { order: sort.field, ascending: !sort.desc };
  if (sort.upcoming) p['end_date_min'] = new Date(Math.floor(now / 60_000) * 60_000).toISOString();
  return p;
}

export function SortPresets<S extends string>({ sort, onSort }: { sort: Sort<S>; onSort: (s: Sort<S>) => void }) {
  const at = SORT_PRESETS.findIndex((p) => same(p.sort, sort));
  return (
    <label className="field">
      <span className="field-label">Sort</span>
      <select
        aria-label="Sort preset"
        value={at < 0 ? '' : String(at)}
        onChange={(e) => {
          const p = SORT_PRESETS[Number(e.target.value)];
          // Every preset's field is an order field of both listings (enums.ts).
          if (p) onSort(p.sort as unknown as Sort<S>);
        }}
      >
        {at < 0 ? (
          <option value="" disabled>
            Column sort
          </option>
        ) : null}
        {SORT_PRESETS.map((p, i) => (
          <option key={p.label} value={String(i)}>
            {p.label}
          </option>
        ))}
      </select>
    </label>
  );
}
