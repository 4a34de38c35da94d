/**
 * The Orders view's states other than the table, one small component each (hooks/useOrders.ts
 * says which applies).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { credentials, mode } from '../../api.ts';
import { startedOffline } from '../../catalog-state.ts';
import { useLive } from '../../live.tsx';
import { useNav } from '../../nav.tsx';

/**
 * Started with `--offline`: the service never asks the CLOB, so it has only the orders it cached
 * before; say that, not "check your credentials".
 */
function OfflineOrdersHint() {
  const { status } = useLive();
  if (!startedOffline(status)) return null;
  return (
    <p className="empty-hint" data-testid="orders-offline">
      The service was started offline (<code>--offline</code>): it never contacts the CLOB, so it can show only the orders it cached while
      online, for the account it was started with. Restart it without <code>--offline</code> to see your live orders.
    </p>
  );
}

export function OrdersNoCredentials() {
  const nav = useNav();
  return (
    <div className="empty" data-testid="orders-no-credentials">
      <p className="empty-title">Connect your API credentials to see your live orders</p>
      <p className="empty-hint">
        Orders are private: the service asks the CLOB for them with your API key, secret and passphrase (L2 credentials).
        {mode === 'desktop'
          ? ' They are stored encrypted by your system keyring and never shown again.'
          : ' In this browser tab they only sign your requests to this service (the secret is never sent), ' +
            'and they are forgotten when the tab closes.'}
      </p>
      <OfflineOrdersHint />
      <button type="button" className="btn btn-primary" onClick={() => nav.setCredentialsOpen(true)}>
        Set API credentials…
      </button>
    </div>
  );
}

export function OrdersUnavailable({ desktopOnly }: { desktopOnly: boolean }) {
  return (
    <div className="empty" data-testid="orders-unavailable">
      <p className="empty-title">Orders are not available {desktopOnly ? 'in this browser page' : 'from this service'}</p>
      <p className="empty-hint">
        {desktopOnly
          ? 'Open your orders in the desktop app.'
          : 'This version of the marketdesk service does not serve the orders view yet; update it.'}
      </p>
    </div>
  );
}

export function OrdersRefused({ address }: { address: string | undefined }) {
  const nav = useNav();
  const queryClient = useQueryClient();
  const clear = useMutation({
    mutationFn: () => credentials.clear(),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['credentials.status'] });
      void queryClient.resetQueries({ queryKey: ['orders.list'] });
    },
  });
  const offline = startedOffline(useLive().status);
  return (
    <div className="empty" data-testid="orders-credentials-rejected">
      <p className="empty-title">
        {offline
          ? 'The service was started offline, and without these credentials'
          : 'These credentials are not the ones the service was started with'}
      </p>
      <OfflineOrdersHint />
      <p className="empty-hint">
        The service refused the request signed with the credentials entered in this tab
        {address ? (
          <>
            {' '}
            for <span className="mono">{address}</span>
          </>
        ) : null}
        . It lists orders only for the account it was started with (<code>npm run serve -- --credentials FILE</code> or the{' '}
        <code>MARKETDESK_*</code> variables), and for none if it was started without credentials. Check the API key, secret, passphrase and
        address, and that this computer's clock is right.
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
  );
}

export function OrdersLoading() {
  return <p className="muted pad">Loading orders…</p>;
}

export function OrdersError({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div className="empty">
      <p className="empty-title">Could not load orders</p>
      <p className="empty-hint">{message}</p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

export function OrdersEmpty({ filtered }: { filtered: boolean }) {
  const offline = startedOffline(useLive().status);
  return (
    <div className="empty" data-testid="orders-empty">
      <p className="empty-title">{filtered ? 'No orders match these filters' : offline ? 'No orders cached' : 'No live orders'}</p>
      {offline && !filtered ? (
        <OfflineOrdersHint />
      ) : (
        <p className="empty-hint">
          {filtered
            ? 'Each word must be found in the market’s question, its event or the outcome (in any order); a condition id or token id ' +
              'finds its market. Side, outcome and status narrow the list further.'
            : 'Orders you place appear here while they are live.'}
        </p>
      )}
    </div>
  );
}
