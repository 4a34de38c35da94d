/**
 * The order book section: `markets.book`, refetched every 2.5 s while the panel is open (not
 * while the window is hidden), one outcome at a time (Yes first). Best bid, best ask and
 * spread in ¢ at the top, then asks above bids, as Polymarket shows them.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../api.ts';
import { fmtCents } from '../chance.ts';
import { Segmented } from '../components/Segmented.tsx';
import { Age } from './Age.tsx';
import { BookLevels } from './BookLevels.tsx';
import { bookView } from './book.ts';

const REFRESH_MS = 2500;

/** `off`: why the market cannot be traded (market-rules.ts tradingIds); its book is then never asked for. */
export function OrderBook({ id, off }: { id: string; off?: string | undefined }) {
  const [pick, setPick] = useState('0');
  const q = useQuery({
    queryKey: ['markets.book', { id }],
    queryFn: () => call('markets.book', { id }),
    enabled: off === undefined,
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
    refetchIntervalInBackground: false,
  });
  const book = q.data?.id === id ? q.data : undefined;
  const outcomes = book?.outcomes ?? [];
  const at = Number(pick) < outcomes.length ? Number(pick) : 0;
  const view = bookView(outcomes[at]?.book);
  return (
    <section className="panel-section order-book" aria-label="Order book" data-testid="order-book">
      <div className="panel-section-head">
        <h3 className="detail-h">Order book</h3>
        {book?.stale ? <Age fetchedAt={book.fetchedAt} stale testId="book-age" /> : null}
        <span className="toolbar-spacer" />
        {outcomes.length > 1 ? (
          <Segmented label="Outcome" options={outcomes.map((o, i) => [String(i), o.name] as const)} value={String(at)} onChange={setPick} />
        ) : null}
      </div>
      {off !== undefined ? (
        <p className="muted book-message" data-testid="book-off">
          {off}
        </p>
      ) : !book ? (
        <p className="muted book-message">{q.error ? `No order book: ${q.error.message}` : 'Loading order book…'}</p>
      ) : !outcomes[at]?.book ? (
        <p className="muted book-message" data-testid="book-empty">
          No order book for {outcomes[at]?.name ?? 'this market'}.
        </p>
      ) : (
        <>
          <dl className="book-top">
            <div>
              <dt>Best bid</dt>
              <dd className="value pos" data-testid="book-best-bid">
                {fmtCents(view.bestBid)}
              </dd>
            </div>
            <div>
              <dt>Best ask</dt>
              <dd className="value neg" data-testid="book-best-ask">
                {fmtCents(view.bestAsk)}
              </dd>
            </div>
            <div>
              <dt>Spread</dt>
              <dd className="value" data-testid="book-spread">
                {fmtCents(view.spread)}
              </dd>
            </div>
          </dl>
          <table className="book-table" aria-label={`Order book for ${outcomes[at]!.name}`}>
            <thead>
              <tr>
                <th scope="col">Price</th>
                <th scope="col">Shares</th>
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              <BookLevels rows={view.asks} side="ask" />
              <tr className="book-mid">
                <td colSpan={3}>Spread {fmtCents(view.spread)}</td>
              </tr>
              <BookLevels rows={view.bids} side="bid" />
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
