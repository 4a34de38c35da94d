import { useNav } from '../../nav.tsx';
import { ExportCopy } from './ExportCopy.tsx';
import { plural } from '../../plural.ts';

interface Props {
  filter: string;
  onFilter(text: string): void;
  /** Orders the filter matches (undefined until known). */
  total: number | undefined;
  selectedCount: number;
  onCopy(): Promise<void>;
  onExport(): Promise<string>;
  address: string | undefined;
}

export function OrdersToolbar({ filter, onFilter, total, selectedCount, onCopy, onExport, address }: Props) {
  const nav = useNav();
  return (
    <div className="toolbar" role="toolbar" aria-label="Order filters">
      <label className="field orders-filter">
        <span className="field-label">Filter by market</span>
        <input
          type="search"
          className="text-input"
          placeholder="market name, condition id or token id"
          aria-label="Filter by market"
          aria-describedby="orders-filter-hint"
          value={filter}
          onChange={(e) => onFilter(e.target.value)}
        />
        <span id="orders-filter-hint" className="visually-hidden">
          Matches the market name (its question or event), a condition id or a token id
        </span>
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
