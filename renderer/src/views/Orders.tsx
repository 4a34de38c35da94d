/**
 * The user's live orders (GET /data/orders through the service), filtered by market and asset,
 * paged through the service's cursor. Desktop: the core holds the API credentials. Web mode:
 * the page signs each request with credentials typed into this tab, and the service accepts
 * them only if they are the ones it was started with. Without credentials it says so and leads
 * to the credentials dialog; with credentials the service refuses, it says that.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useKeyedState } from '../hooks/useKeyedState.ts';
import {
  api,
  ApiError,
  credentials,
  DesktopOnlyError,
  mode,
  NoCredentialsError,
  UnavailableOpError,
  type Order,
  type OrdersParams,
} from '../api.ts';
import { DASH, fmtDateTime, fmtDecimal, fmtInt, fmtPrice } from '../format.ts';
import { useNav } from '../nav.tsx';
import { useUi } from '../ui-state.tsx';
import { useDebounced } from './Search.tsx';

const FIRST_CURSOR = 'MA==';
/** Cursors that mean "no more pages" (the spec's empty string; Polymarket's `LTE=`). */
const isLastCursor = (c: string | undefined) => !c || c === 'LTE=';

export function useCredentialsStatus() {
  return useQuery({ queryKey: ['credentials.status'], queryFn: credentials.status, staleTime: Infinity });
}

function orderTime(v: string | number | undefined): string {
  if (v === undefined || v === '') return DASH;
  // The CLOB sends unix seconds; the spec's shape says timestamp strings: take both.
  const n = typeof v === 'number' ? v : /^\d+$/.test(v) ? Number(v) : undefined;
  return fmtDateTime(n !== undefined ? new Date(n < 1e12 ? n * 1000 : n).toISOString() : v);
}

/** The market's question for a condition id, from the cache. */
function MarketName({ conditionId }: { conditionId: string }) {
  const q = useQuery({
    queryKey: ['markets.list', { conditionId, limit: 1 }],
    queryFn: () => api.markets.list({ conditionId, limit: 1 }),
    staleTime: Infinity,
    enabled: conditionId !== '',
  });
  const m = q.data?.[0];
  return <span title={conditionId}>{m?.question ?? `${conditionId.slice(0, 10)}…`}</span>;
}

export function OrdersView() {
  const { ui, setUi } = useUi();
  const nav = useNav();
  const creds = useCredentialsStatus();
  const queryClient = useQueryClient();
  const market = useDebounced(ui.orders.market.trim(), 250);
  const asset = useDebounced(ui.orders.asset.trim(), 250);
  // New filters start at the first page.
  const [cursors, setCursors] = useKeyedState<string[]>(JSON.stringify([market, asset]), [FIRST_CURSOR]);
  const params: OrdersParams = {
    ...(market ? { market } : {}),
    ...(asset ? { asset_id: asset } : {}),
    next_cursor: cursors[cursors.length - 1]!,
  };
  // Desktop: whether the core has credentials. Web mode: whether this tab has some.
  const noCredentials = creds.data?.configured === false;
  const q = useQuery({
    queryKey: ['orders.list', params, creds.data?.address ?? ''],
    queryFn: () => api.orders.list(params),
    placeholderData: keepPreviousData,
    enabled: !noCredentials && creds.isSuccess,
    retry: false,
    staleTime: 10_000,
  });
  const unavailable = q.error instanceof UnavailableOpError && !(q.error instanceof DesktopOnlyError);
  const status401 = q.error instanceof ApiError && q.error.status === 401;
  // Web mode: the page signed the request; a 401 means the service was started with other credentials.
  const rejected = mode === 'web' && status401 && !noCredentials && !(q.error instanceof NoCredentialsError);
  const unauthorized = noCredentials || (status401 && !rejected);
  const orders: Order[] = q.data?.data ?? [];
  const state = unavailable
    ? 'unavailable'
    : rejected
      ? 'credentials-rejected'
      : unauthorized
        ? 'no-credentials'
        : q.isPending
          ? 'loading'
          : q.isError
            ? 'error'
            : orders.length === 0
              ? 'empty'
              : 'ready';
  const next = q.data?.next_cursor;
  const clear = useMutation({
    mutationFn: () => credentials.clear(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['credentials.status'] });
      void queryClient.resetQueries({ queryKey: ['orders.list'] });
    },
  });

  return (
    <section className="view" aria-label="Orders" data-state={state}>
      <div className="toolbar" role="toolbar" aria-label="Order filters">
        <label className="field">
          <span className="field-label">Market</span>
          <input
            type="search"
            className="text-input"
            placeholder="condition id"
            aria-label="Filter orders by market (condition id)"
            value={ui.orders.market}
            onChange={(e) => setUi((s) => ({ ...s, orders: { ...s.orders, market: e.target.value } }))}
          />
        </label>
        <label className="field">
          <span className="field-label">Asset</span>
          <input
            type="search"
            className="text-input"
            placeholder="token id"
            aria-label="Filter orders by asset (token id)"
            value={ui.orders.asset}
            onChange={(e) => setUi((s) => ({ ...s, orders: { ...s.orders, asset: e.target.value } }))}
          />
        </label>
        <span className="toolbar-spacer" />
        {creds.data?.configured ? (
          <span className="muted">
            Account {creds.data.address?.slice(0, 6)}…{creds.data.address?.slice(-4)}
          </span>
        ) : null}
        <button type="button" className="btn btn-quiet" onClick={() => nav.setCredentialsOpen(true)}>
          API credentials…
        </button>
      </div>
      <div className="table-wrap">
        {state === 'unavailable' ? (
          <div className="empty">
            <p className="empty-title">Orders are not available from this service</p>
            <p className="empty-hint">This version of the marketdesk service does not serve your orders yet.</p>
          </div>
        ) : state === 'no-credentials' ? (
          <div className="empty" data-testid="orders-no-credentials">
            <p className="empty-title">Connect your API credentials to see your live orders</p>
            <p className="empty-hint">
              Orders are private: the service asks the CLOB for them with your API key, secret and passphrase (L2 credentials).
              {mode === 'desktop'
                ? ' They are stored encrypted by your system keyring and never shown again.'
                : ' In this browser tab they only sign your requests to this service (the secret is never sent), ' +
                  'and they are forgotten when the tab closes.'}
            </p>
            <button type="button" className="btn btn-primary" onClick={() => nav.setCredentialsOpen(true)}>
              Set API credentials…
            </button>
          </div>
        ) : state === 'credentials-rejected' ? (
          <div className="empty" data-testid="orders-credentials-rejected">
            <p className="empty-title">These credentials are not the ones the service was started with</p>
            <p className="empty-hint">
              The service refused the request signed with the credentials entered in this tab
              {creds.data?.address ? (
                <>
                  {' '}
                  for <span className="mono">{creds.data.address}</span>
                </>
              ) : null}
              . It lists orders only for the account it was started with (<code>npm run serve -- --credentials FILE</code> or the{' '}
              <code>MARKETDESK_*</code> variables), and for none if it was started without credentials. Check the API key, secret,
              passphrase and address, and that this computer's clock is right.
            </p>
            <div className="empty-actions">
              <button type="button" className="btn btn-primary" onClick={() => nav.setCredentialsOpen(true)}>
                Re-enter credentials…
              </button>
              <button type="button" className="btn" onClick={() => clear.mutate()} disabled={clear.isPending}>
                Clear credentials
              </button>
            </div>
          </div>
        ) : state === 'error' ? (
          <div className="empty">
            <p className="empty-title">Could not load orders</p>
            <p className="empty-hint">{q.error?.message}</p>
            <button type="button" className="btn" onClick={() => void q.refetch()}>
              Retry
            </button>
          </div>
        ) : state === 'empty' ? (
          <div className="empty">
            <p className="empty-title">No live orders{market || asset ? ' match these filters' : ''}</p>
            <p className="empty-hint">Orders you place appear here while they are live.</p>
          </div>
        ) : state === 'loading' ? (
          <p className="muted pad">Loading orders…</p>
        ) : (
          <table className="table" aria-label="Live orders" data-busy={q.isFetching}>
            <thead>
              <tr>
                <th scope="col">Market</th>
                <th scope="col">Outcome</th>
                <th scope="col">Side</th>
                <th scope="col" className="num">
                  Price
                </th>
                <th scope="col" className="num">
                  Size
                </th>
                <th scope="col" className="num">
                  Matched
                </th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {orders.map((o) => (
                <tr key={o.id} data-testid="order-row">
                  <td className="ellipsis wide">
                    <MarketName conditionId={o.market} />
                  </td>
                  <td>{o.outcome || DASH}</td>
                  <td>
                    <span className={`side side-${o.side.toLowerCase()}`}>{o.side}</span>
                  </td>
                  <td className="num">{fmtPrice(o.price)}</td>
                  <td className="num">{fmtDecimal(o.originalSize)}</td>
                  <td className="num">{fmtDecimal(o.sizeMatched)}</td>
                  <td>
                    <span className="badge badge-inactive">{o.status}</span>
                  </td>
                  <td>{orderTime(o.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {state === 'ready' ? (
        <div className="pager">
          <button type="button" className="btn" disabled={cursors.length < 2} onClick={() => setCursors((c) => c.slice(0, -1))}>
            ← Previous
          </button>
          <span className="muted">
            Page {fmtInt(cursors.length)} · {fmtInt(orders.length)} orders
          </span>
          <button type="button" className="btn" disabled={isLastCursor(next)} onClick={() => next && setCursors((c) => [...c, next])}>
            Next →
          </button>
        </div>
      ) : null}
    </section>
  );
}
