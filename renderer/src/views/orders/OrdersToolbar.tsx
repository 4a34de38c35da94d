/**
 * Above the orders table: the word filter (words from the market, its event or the outcome, in
 * any order; or a condition id or token id), side, outcome and status, the total, CSV export of
 * everything the filters and sort select, copying the selected rows, and the account with its
 * credentials button.
 */
import { fmtInt } from '../../format.ts';
import { ORDER_STATUSES, type OrdersFilters } from '../../hooks/useOrders.ts';
import { useNav } from '../../nav.tsx';
import { ExportCopy } from './ExportCopy.tsx';
import { plural } from '../../plural.ts';

/** Outcome names offered while typing (any other name can be typed whole). */
const COMMON_OUTCOMES = ['Yes', 'No', 'Up', 'Down', 'Over', 'Under'];

interface Props {
  filter: string;
  onFilter(text: string): void;
  filters: OrdersFilters;
  onFilters(patch: Partial<OrdersFilters>): void;
  /** Orders the filter matches (undefined until known). */
  total: number | undefined;
  selectedCount: number;
  onCopy(): Promise<void>;
  onExport(): Promise<string>;
  address: string | undefined;
}

export function OrdersToolbar({ filter, onFilter, filters, onFilters, total, selectedCount, onCopy, onExport, address }: Props) {
  const nav = useNav();
  return (
    <div className="toolbar orders-toolbar" role="toolbar" aria-label="Order filters">
      <label className="field orders-filter">
        <span className="field-label">Filter</span>
        <input
          type="search"
          className="text-input"
          placeholder="words from the market or outcome, or an id"
          aria-label="Filter by market, event or outcome words"
          aria-describedby="orders-filter-hint"
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
        />
        <span id="orders-filter-hint" className="visually-hidden">
          Words in any order; each must be found in the market's question, its event or the outcome. A condition id or token id finds that
          market's orders.
        </span>
      </label>
      <label className="field">
        <span className="field-label">Side</span>
        <select aria-label="Side" value={filters.side} onChange={(e) => onFilters({ side: e.target.value as OrdersFilters['side'] })}>
          <option value="">Buy and sell</option>
          <option value="BUY">Buy</option>
          <option value="SELL">Sell</option>
        </select>
      </label>
      <label className="field orders-outcome-filter">
        <span className="field-label">Outcome</span>
        <input
          type="search"
          className="text-input"
          list="orders-outcomes"
          placeholder="any"
          aria-label="Outcome"
          title="An outcome's whole name: Yes, No, a candidate…"
          value={filters.outcome}
          onChange={(e) => onFilters({ outcome: e.target.value })}
        />
        <datalist id="orders-outcomes">
          {COMMON_OUTCOMES.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      </label>
      <label className="field">
        <span className="field-label">Status</span>
        <select
          aria-label="Status"
          value={filters.status}
          onChange={(e) => onFilters({ status: e.target.value as OrdersFilters['status'] })}
        >
          <option value="">Any status</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s.replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      {total !== undefined ? (
        <span className="orders-total" data-testid="orders-total">
          {plural(total, 'order')}
        </span>
      ) : null}
      <span className="toolbar-spacer" />
      <ExportCopy selectedCount={selectedCount} onCopy={onCopy} onExport={onExport} canExport={!!total} />
      {address ? (
        <span className="muted orders-account">
          Account {address.slice(0, 6)}…{address.slice(-4)}
        </span>
      ) : null}
      <button type="button" className="btn btn-quiet" onClick={() => nav.setCredentialsOpen(true)}>
        API credentials…
      </button>
    </div>
  );
}
