import { useQuery } from '@tanstack/react-query';
import icon from '../../resources/icon.svg';
import { api, ApiError, mode, type Market } from './api.ts';

const LIMIT = 50;

const volumeFormat = new Intl.NumberFormat(undefined, {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 2,
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function App() {
  const markets = useQuery({
    queryKey: ['markets.list', { limit: LIMIT }],
    queryFn: () => api.markets.list({ limit: LIMIT }),
  });

  return (
    <div className="app">
      <header className="bar">
        <img className="bar-icon" src={icon} alt="" width={22} height={22} />
        <h1 className="bar-title">marketdesk</h1>
        <span className="bar-mode">{mode === 'desktop' ? 'Desktop' : 'Web'}</span>
        <button
          type="button"
          className="bar-button"
          onClick={() => void markets.refetch()}
          disabled={markets.isFetching}
        >
          Refresh
        </button>
      </header>
      <p className="status" role="status">
        {statusText(markets.status, markets.data, markets.error, markets.dataUpdatedAt, markets.isFetching)}
      </p>
      <main className="content">
        {markets.data && markets.data.length > 0 ? (
          <MarketsTable markets={markets.data} />
        ) : (
          <EmptyState loading={markets.isPending} error={markets.error} />
        )}
      </main>
    </div>
  );
}

function statusText(
  status: 'pending' | 'error' | 'success',
  data: Market[] | undefined,
  error: Error | null,
  updatedAt: number,
  fetching: boolean,
): string {
  if (status === 'pending') return 'Loading markets…';
  if (status === 'error') {
    if (error instanceof ApiError && error.status === 503) return 'Service not running';
    return `Could not load markets: ${describeError(error)}`;
  }
  const count = data?.length ?? 0;
  const when = updatedAt ? ` · updated ${timeFormat.format(updatedAt)}` : '';
  return `${count} market${count === 1 ? '' : 's'}${when}${fetching ? ' · refreshing…' : ''}`;
}

function describeError(error: Error | null): string {
  if (error instanceof ApiError) return `${error.message} (${error.status})`;
  // fetch rejects with a TypeError when nothing listens at the address.
  if (error instanceof TypeError) return 'the service is not reachable';
  return error?.message ?? 'unknown error';
}

function EmptyState({ loading, error }: { loading: boolean; error: Error | null }) {
  if (loading) return null;
  const unavailable = error instanceof ApiError && error.status === 503;
  return (
    <div className="empty">
      <p className="empty-title">{unavailable ? 'The service is not running yet' : 'No markets'}</p>
      <p className="empty-hint">
        {unavailable
          ? 'Markets appear here once the local service has synced the catalog.'
          : error
            ? 'Check that the service is running, then refresh.'
            : 'The local cache is empty. Markets appear after the first sync.'}
      </p>
    </div>
  );
}

function MarketsTable({ markets }: { markets: Market[] }) {
  return (
    <table className="grid">
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col" className="num">
            Volume
          </th>
          <th scope="col">End date</th>
          <th scope="col">Status</th>
        </tr>
      </thead>
      <tbody>
        {markets.map((m) => (
          <tr key={m.id}>
            <td className="question" title={m.question}>
              {m.question ?? m.slug ?? m.id}
            </td>
            <td className="num">{formatVolume(m)}</td>
            <td>{formatDate(m.endDate)}</td>
            <td>
              <StatusBadge market={m} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function formatVolume(m: Market): string {
  // Gamma leaves out zero values, and `volume` is a string while `volumeNum` is a number.
  const value = m.volumeNum ?? (m.volume !== undefined ? Number(m.volume) : NaN);
  return Number.isFinite(value) ? volumeFormat.format(value) : '—';
}

function formatDate(value: string | undefined): string {
  if (!value) return '—';
  const time = Date.parse(value);
  return Number.isNaN(time) ? '—' : dateFormat.format(time);
}

function StatusBadge({ market }: { market: Market }) {
  const [label, tone] = market.archived
    ? ['Archived', 'muted']
    : market.closed
      ? ['Closed', 'muted']
      : market.active
        ? ['Open', 'open']
        : ['Inactive', 'muted'];
  return <span className={`badge badge-${tone}`}>{label}</span>;
}
