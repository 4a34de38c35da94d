/**
 * The Orders view's state machine: what the view can show, as one discriminated union. The
 * list is the service's `orders.view` (orders joined with their cached markets, filtered by
 * words, side, outcome and status, sorted, counted, offset-paged). Desktop: the core holds the credentials. Web
 * mode: the page signs each request with credentials typed into this tab, and the service
 * takes them only if they are the ones it was started with.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, call, credentials, DesktopOnlyError, mode, NoCredentialsError, UnavailableOpError, type InputOf } from '../api.ts';
import type { OrderViewField } from '../../../src/contract/enums.ts';
import { ORDER_STATUSES } from '../../../src/contract/enums.ts';
import type { OrdersViewPage } from '../../../src/contract/orders-ops.ts';

export type { OrderRow, OrdersViewPage } from '../../../src/contract/orders-ops.ts';
export { ORDER_STATUSES };
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type { OrderViewField };

export function useCredentialsStatus() {
  return useQuery({ queryKey: ['credentials.status'], queryFn: credentials.status, staleTime: Infinity });
}

export interface OrdersSort {
  by: OrderViewField;
  ascending: boolean;
}

/** The filters beside the words: '' for any. */
export interface OrdersFilters {
  side: '' | 'BUY' | 'SELL';
  /** An outcome's name, whole (trimmed). */
  outcome: string;
  status: '' | OrderStatus;
}

export const NO_ORDER_FILTERS: OrdersFilters = { side: '', outcome: '', status: '' };

export interface OrdersQuery extends OrdersFilters {
  /** Words from the market or outcome in any order, or a condition id or token id (trimmed; '' for all). */
  q: string;
  sort: OrdersSort;
  offset: number;
  limit: number;
}

export type OrdersState =
  /** Desktop: the core has none. Web: this tab has none (nothing is sent). */
  | { kind: 'no-credentials' }
  /** The service (or this mode) does not offer the orders view. */
  | { kind: 'unavailable'; desktopOnly: boolean }
  /** Web mode: the service refused this tab's credentials (not the ones it was started with). */
  | { kind: 'refused'; address: string | undefined }
  | { kind: 'loading' }
  | { kind: 'error'; message: string; retry: () => void }
  | { kind: 'empty'; filtered: boolean }
  | { kind: 'rows'; page: OrdersViewPage; busy: boolean };

/** The parameters of `orders.view` (and, without the paging, `orders.export`) for a query. */
export function viewParams(query: OrdersQuery): InputOf<'orders.view'> {
  return {
    ...(query.q ? { q: query.q } : {}),
    ...(query.side ? { side: query.side } : {}),
    ...(query.outcome ? { outcome: query.outcome } : {}),
    ...(query.status ? { status: query.status } : {}),
    order_by: query.sort.by,
    ascending: query.sort.ascending,
    limit: query.limit,
    offset: query.offset,
  };
}

export function useOrders(query: OrdersQuery): { state: OrdersState; address: string | undefined } {
  const creds = useCredentialsStatus();
  const noCredentials = creds.data?.configured === false;
  const params = viewParams(query);
  const q = useQuery({
    // Under 'orders.list': the credentials dialog resets that key when credentials change, and
    // nothing of the previous credentials' answers (rows, a refusal) may linger.
    queryKey: ['orders.list', 'view', params, creds.data?.address ?? ''],
    queryFn: () => call('orders.view', params),
    placeholderData: keepPreviousData,
    enabled: !noCredentials && creds.isSuccess,
    retry: false,
    staleTime: 10_000,
  });
  const address = creds.data?.address;
  const filtered = query.q !== '' || query.side !== '' || query.outcome !== '' || query.status !== '';
  return { state: stateOf(q, noCredentials, address, filtered), address };
}

type ViewQuery = Pick<ReturnType<typeof useQuery<OrdersViewPage>>, 'data' | 'error' | 'isPending' | 'isFetching' | 'refetch'>;

function stateOf(q: ViewQuery, noCredentials: boolean, address: string | undefined, filtered: boolean): OrdersState {
  const e = q.error;
  if (e instanceof UnavailableOpError) return { kind: 'unavailable', desktopOnly: e instanceof DesktopOnlyError };
  const status401 = e instanceof ApiError && e.status === 401;
  // Web mode: the page signed the request, so a 401 means the service holds other credentials.
  if (mode === 'web' && status401 && !noCredentials && !(e instanceof NoCredentialsError)) return { kind: 'refused', address };
  if (noCredentials || status401) return { kind: 'no-credentials' };
  if (q.isPending) return { kind: 'loading' };
  if (e) return { kind: 'error', message: e.message, retry: () => void q.refetch() };
  const page = q.data!;
  if (page.total === 0) return { kind: 'empty', filtered };
  return { kind: 'rows', page, busy: q.isFetching };
}
