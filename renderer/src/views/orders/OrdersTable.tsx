/**
 * The orders table: sortable headers (a click sorts, again reverses; aria-sort says which), a
 * checkbox per row for "Copy selected rows", and a row click opens its market in the detail
 * panel over this view (disabled, with the reason as its tooltip, when the market is not in the cache).
 */
import type { OrderRow, OrdersSort } from '../../hooks/useOrders.ts';
import { useNav } from '../../nav.tsx';
import { ORDER_COLUMNS, marketLabel, outcomeLabel } from './columns.ts';
import './Orders.css';

interface Props {
  rows: readonly OrderRow[];
  busy: boolean;
  sort: OrdersSort;
  onSort(sort: OrdersSort): void;
  selected: ReadonlySet<string>;
  onSelect(ids: readonly string[], on: boolean): void;
}

function SortHeader({ sort, onSort }: Pick<Props, 'sort' | 'onSort'>) {
  return (
    <>
      {ORDER_COLUMNS.map((c) => {
        const active = sort.by === c.field;
        const dir = active ? (sort.ascending ? 'ascending' : 'descending') : 'none';
        return (
          <th key={c.field} scope="col" className={`${c.numeric ? 'num' : ''}${active ? ' sorted' : ''}`} aria-sort={dir} title={c.hint}>
            <button
              type="button"
              className="th-sort"
              onClick={() => onSort({ by: c.field, ascending: active ? !sort.ascending : c.firstAscending })}
            >
              {c.label}
              <span className="sort-mark" aria-hidden="true">
                {active ? (sort.ascending ? '▲' : '▼') : ''}
              </span>
            </button>
          </th>
        );
      })}
    </>
  );
}

function OrderLine({ r, checked, onSelect }: { r: OrderRow; checked: boolean; onSelect: Props['onSelect'] }) {
  const nav = useNav();
  // Over the Orders view: the trader stays among their orders.
  const open = r.market_id ? () => nav.open('market', r.market_id!) : undefined;
  const why = r.market_id ? `Open “${r.question}”` : 'This market is not in the cache yet, so it cannot be opened';
  return (
    <tr data-testid="order-row" data-order-id={r.id} className={open ? 'order-row clickable' : 'order-row'} onClick={open}>
      <td className="check">
        <input
          type="checkbox"
          aria-label={`Select order ${r.id.slice(0, 10)}`}
          checked={checked}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => onSelect([r.id], e.target.checked)}
        />
      </td>
      <td className="wide order-market-cell">
        <button
          type="button"
          className="link-btn order-market"
          data-testid="order-market"
          data-market={r.market}
          title={why}
          disabled={!open}
          onClick={(e) => {
            e.stopPropagation();
            open?.();
          }}
        >
          {marketLabel(r)}
        </button>
        <span className="order-outcome" data-testid="order-outcome">
          {outcomeLabel(r)}
        </span>
      </td>
      <td>
        <span className={`side side-${r.side.toLowerCase()}`}>{r.side}</span>
      </td>
      {ORDER_COLUMNS.slice(2).map((c) => (
        <td key={c.field} className={c.numeric ? 'num' : undefined} data-col={c.field} title={c.title?.(r)}>
          {c.field === 'status' ? <span className="badge badge-inactive">{c.text(r)}</span> : c.text(r)}
        </td>
      ))}
    </tr>
  );
}

export function OrdersTable({ rows, busy, sort, onSort, selected, onSelect }: Props) {
  const all = rows.length > 0 && rows.every((r) => selected.has(r.id));
  return (
    <table className="table orders-table" aria-label="Live orders" data-busy={busy}>
      <thead>
        <tr>
          <th scope="col" className="check">
            <input
              type="checkbox"
              aria-label="Select all orders on this page"
              checked={all}
              onChange={(e) =>
                onSelect(
                  rows.map((r) => r.id),
                  e.target.checked,
                )
              }
            />
          </th>
          <SortHeader sort={sort} onSort={onSort} />
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <OrderLine key={r.id} r={r} checked={selected.has(r.id)} onSelect={onSelect} />
        ))}
      </tbody>
    </table>
  );
}
