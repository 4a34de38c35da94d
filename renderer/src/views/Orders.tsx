/**
 * The user's live orders: hooks/useOrders.ts decides the state, this picks its component
 * (views/orders/). The filter text is kept with the UI state; side, outcome and status filters,
 * sort, page and selection are this visit's. A row opens its market's panel over this view.
 */
import { useState } from 'react';
import { Pager } from '../components/Pager.tsx';
import { toTsv } from '../format-trade.ts';
import { useKeyedState } from '../hooks/useKeyedState.ts';
import {
  NO_ORDER_FILTERS,
  type OrdersFilters,
  type OrdersQuery,
  type OrdersSort,
  type OrdersState,
  useOrders,
  viewParams,
} from '../hooks/useOrders.ts';
import { useUi } from '../ui-state.tsx';
import { copyRows } from './orders/columns.ts';
import { copyText, downloadExport } from './orders/exporting.ts';
import { OrdersEmpty, OrdersError, OrdersLoading, OrdersNoCredentials, OrdersRefused, OrdersUnavailable } from './orders/OrdersStates.tsx';
import { OrdersTable } from './orders/OrdersTable.tsx';
import { OrdersToolbar } from './orders/OrdersToolbar.tsx';
import { useDebounced } from './Search.tsx';

const PAGE_SIZES = [50, 100, 250, 500] as const;
/** The view's `data-state` (the e2e suites and styles read it). */
const DATA_STATE: Record<OrdersState['kind'], string> = {
  'no-credentials': 'no-credentials',
  unavailable: 'unavailable',
  refused: 'credentials-rejected',
  loading: 'loading',
  error: 'error',
  empty: 'empty',
  rows: 'ready',
};

export function OrdersView() {
  const { ui, setUi } = useUi();
  const filter = ui.orders.market;
  const q = useDebounced(filter.trim(), 250);
  const [filters, setFilters] = useState<OrdersFilters>(NO_ORDER_FILTERS);
  const outcome = useDebounced(filters.outcome.trim(), 250);
  const [sort, setSort] = useState<OrdersSort>({ by: 'created_at', ascending: false });
  const [limit, setLimit] = useState(100);
  const chosen: OrdersFilters = { ...filters, outcome };
  // A new filter, sort or page size starts at the first page; a new page starts with nothing selected.
  const [offset, setOffset] = useKeyedState(JSON.stringify([q, chosen, sort, limit]), 0);
  const query: OrdersQuery = { q, ...chosen, sort, offset, limit };
  const [selected, setSelected] = useKeyedState<ReadonlySet<string>>(JSON.stringify(query), new Set());
  const { state, address } = useOrders(query);
  const rows = state.kind === 'rows' ? state.page.data : [];
  const select = (ids: readonly string[], on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const { limit: _l, offset: _o, ...exportParams } = viewParams(query);

  return (
    <section className="view" aria-label="Orders" data-state={DATA_STATE[state.kind]}>
      <OrdersToolbar
        filter={filter}
        onFilter={(market) => setUi((s) => ({ ...s, orders: { ...s.orders, market } }))}
        filters={filters}
        onFilters={(patch) => setFilters((f) => ({ ...f, ...patch }))}
        total={state.kind === 'rows' ? state.page.total : state.kind === 'empty' ? 0 : undefined}
        selectedCount={rows.filter((r) => selected.has(r.id)).length}
        onCopy={() => copyText(toTsv(copyRows(rows.filter((r) => selected.has(r.id)))))}
        onExport={() => downloadExport('orders.export', exportParams, 'marketdesk-orders.csv')}
        address={address}
      />
      <div className="table-wrap">
        <OrdersBody state={state} sort={sort} onSort={setSort} selected={selected} onSelect={select} />
      </div>
      {state.kind === 'rows' ? (
        <Pager
          offset={offset}
          limit={limit}
          count={state.page.data.length}
          total={state.page.total}
          onOffset={setOffset}
          sizes={PAGE_SIZES}
          onLimit={setLimit}
          noun="orders"
        />
      ) : null}
    </section>
  );
}

function OrdersBody({ state, ...table }: { state: OrdersState } & Omit<Parameters<typeof OrdersTable>[0], 'rows' | 'busy'>) {
  switch (state.kind) {
    case 'no-credentials':
      return <OrdersNoCredentials />;
    case 'unavailable':
      return <OrdersUnavailable desktopOnly={state.desktopOnly} />;
    case 'refused':
      return <OrdersRefused address={state.address} />;
    case 'loading':
      return <OrdersLoading />;
    case 'error':
      return <OrdersError message={state.message} retry={state.retry} />;
    case 'empty':
      return <OrdersEmpty filtered={state.filtered} />;
    case 'rows':
      return <OrdersTable rows={state.page.data} busy={state.busy} {...table} />;
  }
}
